import * as vscode from 'vscode';
import type { DocumentAnalysis, PromptAnalyzer } from '../analysis/analyzer';
import { templateAdded, countBasis } from '../../core/chat/templateText';
import { formatTokens } from '../../core/format';
import { markdownCode, markdownText } from '../../core/markdown';
import { footnotes, hoverTable, scenarioLine } from './targetTable';
import { readSettings } from '../settings';
import type { CheapestLine } from './cheapest';
import { markHoverShown } from '../commands/example';

/** The hover: tokens (prompt, message, selection) and per target TTFT cold/warm, TPOT, E2E, cost. */
export class PromptHoverProvider implements vscode.HoverProvider {
  constructor(
    private readonly analyzer: PromptAnalyzer,
    private readonly cheapest: CheapestLine,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!readSettings(document.uri).settings.hover.enabled) return undefined;
    // Answer from the cache; only the very first hover of a document computes.
    const analysis = this.analyzer.latest(document) ?? (await this.analyzer.analyze(document));
    if (!analysis) return undefined;
    const selection =
      vscode.window.activeTextEditor?.document === document ? vscode.window.activeTextEditor.selection : undefined;
    // The selection is counted in the analysis worker, with the primary target's tokenizer.
    const selectionTokens =
      selection && !selection.isEmpty
        ? await this.analyzer.countText(analysis.count.tokenizer, document.getText(selection))
        : undefined;
    const markdown = new vscode.MarkdownString(
      renderHover(analysis, document.offsetAt(position), selectionTokens, this.cheapest.get(document)),
    );
    markdown.supportThemeIcons = true;
    markHoverShown(); // completes the walkthrough's first step
    return new vscode.Hover(markdown);
  }
}

export function renderHover(
  a: DocumentAnalysis,
  offset: number,
  selectionTokens: number | undefined,
  cheapest: string | undefined,
): string {
  if (a.tooLarge) return `**Prompt Latency Lens** — file ${a.tooLarge}`;
  const lines: string[] = [];
  const primary = a.targets[0];
  const override = a.frontMatterTarget
    ? ` — front matter ${markdownCode(`model: ${a.frontMatterTarget}`)} overrides the primary target (${markdownCode(a.configuredPrimary ?? 'none')})`
    : '';
  lines.push(`**Prompt Latency Lens** · primary target ${markdownCode(primary?.label ?? 'none')}${override}`, '');
  const exact = a.count.exact;
  // A rendered chat template's tokens are said apart (what it added, what it assumed); else the overhead rule.
  const added = templateAdded(a.count) ?? 'chat overhead';
  const parts = [
    `prompt **${formatTokens(a.count.inputTokens, exact)}** tokens (${formatTokens(a.count.contentTokens, exact)} content + ${added}, \`${a.count.tokenizer}\`${exact ? '' : ', approximate'})`,
  ];
  const index = a.parsed.messages.findIndex((m) => offset >= m.range.start && offset <= m.range.end);
  const message = index >= 0 ? a.count.messages[index] : undefined;
  if (message) parts.push(`this ${message.role} message **${formatTokens(message.tokens, exact)}**`);
  if (selectionTokens !== undefined) parts.push(`selection **${formatTokens(selectionTokens, exact)}**`);
  lines.push(`Tokens: ${parts.join(' · ')}`, '');
  lines.push(scenarioLine(a), '');
  lines.push(...hoverTable(a), '');
  // What needs acting on comes before the details: failing requests, the SLO, the cheaper target.
  // Requests that would fail (retired model, prompt over the window), for every target: errors, not advice.
  const errors = a.targets.flatMap((t) => t.errors);
  if (errors.length > 0) lines.push(...errors.map((e) => `$(error) ${markdownText(e)}`), '');
  else if (primary?.advice) lines.push(`$(warning) ${markdownText(primary.advice)}`, '');
  if (cheapest) lines.push(cheapest, '');
  const template = countBasis(a.count);
  const details = [
    ...(template ? [`Tokens: ${markdownText(template)}.`] : []),
    ...footnotes(a),
    '$/1k calls: one cold call that fills the cache, then 999 warm ones (1,000 cold without a warm figure).',
    `Bound: ${a.targets.map((t) => `${markdownText(t.label)} — ${t.phase}`).join('; ')}.`,
  ];
  // The label names engine and scope; the range's derivation is said once per self-hosted target.
  const ranges = a.targets.flatMap((t) =>
    t.cold.estimate.assumptions && !t.calibratedOn
      ? [`${markdownText(t.label)}: ${markdownText(t.cold.estimate.assumptions.rangeLabel)}`]
      : [],
  );
  if (ranges.length > 0) details.push(`TTFT range ${ranges.join('; ')}.`);
  const pricing = a.targets.filter((t) => t.pricing.length > 0);
  if (pricing.length > 0)
    details.push(
      `Cost assumes: ${pricing.map((t) => `${markdownText(t.label)} — ${markdownText(t.pricing.join('; '))}`).join(' · ')}.`,
    );
  if (a.count.variables.length > 0)
    details.push(
      `Unfilled variables counted as their literal text: ${a.count.variables.map((v) => markdownCode(v, 80)).join(', ')}`,
    );
  lines.push(details.map((d) => `_${d}_`).join('  \n'));
  if (a.problems.length > 0) {
    // Settings first (they change what is estimated), then table rows; the rest are in notifications.
    const ordered = [...a.problems].sort(
      (x, y) => Number(!x.startsWith('promptLens.')) - Number(!y.startsWith('promptLens.')),
    );
    lines.push(
      '',
      ...ordered.slice(0, 5).map((p) => `$(warning) ${markdownText(p)}`),
      ...(ordered.length > 5 ? [`… and ${ordered.length - 5} more`] : []),
    );
  }
  return lines.join('\n');
}
