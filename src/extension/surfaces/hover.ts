import * as vscode from 'vscode';
import type { DocumentAnalysis, PromptAnalyzer } from '../analysis/analyzer';
import { templateAdded, countBasis } from '../../core/chat/templateText';
import { formatTokenCount, formatTokens } from '../../core/format';
import { markdownCode, markdownText } from '../../core/markdown';
import { countingHover, footnotes, hoverTable, pendingLines, scenarioLine } from './targetTable';
import { readSettings } from '../settings';
import type { CheapestLine } from './cheapest';
import { markHoverShown } from '../commands/example';
import { isPromptDocument } from '../promptDocuments';

/**
 * The hover: tokens (prompt, message, selection) and per target TTFT cold/warm, TPOT, E2E, cost. It never waits for
 * the analysis worker: it shows what is known for the document (counts and estimates come first) and says what is
 * still pending — the first count, the findings, the cheapest-target line — instead of holding the hover back.
 */
export class PromptHoverProvider implements vscode.HoverProvider {
  /** The last selection counted (a hover asks again for the same one while it waits). */
  private selection: SelectionCount | undefined;

  constructor(
    private readonly analyzer: PromptAnalyzer,
    private readonly cheapest: CheapestLine,
  ) {}

  async provideHover(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Hover | undefined> {
    if (!readSettings(document.uri).settings.hover.enabled || !isPromptDocument(document)) return undefined;
    const analysis = this.analyzer.latest(document);
    if (!analysis) {
      // Opened a moment ago: the count is on its way (this starts it if nothing has yet).
      void this.analyzer.analyze(document).catch(() => undefined);
      return new vscode.Hover(new vscode.MarkdownString(countingHover(vscode.l10n.t)));
    }
    const selection =
      vscode.window.activeTextEditor?.document === document ? vscode.window.activeTextEditor.selection : undefined;
    const selectionTokens =
      selection && !selection.isEmpty ? await this.selectionTokens(document, selection, analysis) : undefined;
    const markdown = new vscode.MarkdownString(
      renderHover(
        analysis,
        document.offsetAt(position),
        selectionTokens,
        this.cheapest.get(document),
        this.cheapest.pending(document, analysis),
      ),
    );
    markdown.supportThemeIcons = true;
    void markHoverShown(); // completes the walkthrough's first step
    return new vscode.Hover(markdown);
  }

  /**
   * The selection's tokens, counted in the analysis worker with the primary target's tokenizer and kept for this
   * version and selection. The hover waits for them at most SELECTION_WAIT_MS (the worker may be busy with a scan
   * slice or a megabyte's findings), then says they are being counted; the next hover has them.
   */
  private async selectionTokens(
    document: vscode.TextDocument,
    selection: vscode.Selection,
    analysis: DocumentAnalysis,
  ): Promise<number | 'pending' | undefined> {
    const tokenizer = analysis.count.tokenizer;
    const id = `${document.uri.toString()} ${document.version} ${document.offsetAt(selection.start)} ${document.offsetAt(selection.end)} ${tokenizer}`;
    if (this.selection?.id !== id) {
      const entry: SelectionCount = { id, counting: Promise.resolve() };
      entry.counting = this.analyzer.countText(tokenizer, document.getText(selection)).then(
        (tokens) => (entry.tokens = tokens),
        () => (entry.failed = true),
      );
      this.selection = entry;
    }
    const entry = this.selection;
    if (entry.tokens === undefined && !entry.failed)
      await Promise.race([entry.counting, new Promise((resolve) => setTimeout(resolve, SELECTION_WAIT_MS))]);
    return entry.failed ? undefined : (entry.tokens ?? 'pending');
  }
}

/** The longest a hover waits for its selection's count before saying it is on its way. */
const SELECTION_WAIT_MS = 30;

interface SelectionCount {
  /** Document, version, selection and tokenizer. */
  id: string;
  counting: Promise<unknown>;
  tokens?: number;
  failed?: boolean;
}

export function renderHover(
  a: DocumentAnalysis,
  offset: number,
  selectionTokens: number | 'pending' | undefined,
  cheapest: string | undefined,
  cheapestPending = false,
): string {
  const t = vscode.l10n.t;
  if (a.tooLarge) return t('**Prompt Latency Lens** — file {0}', a.tooLarge);
  const lines: string[] = [];
  const primary = a.targets[0];
  const none = t('none');
  const override = a.frontMatterTarget
    ? ` — ${t(
        'front matter {0} overrides the primary target ({1})',
        markdownCode(`model: ${a.frontMatterTarget}`),
        markdownCode(a.configuredPrimary ?? none),
      )}`
    : '';
  lines.push(
    `${t('**Prompt Latency Lens** · primary target {0}', markdownCode(primary?.label ?? none))}${override}`,
    '',
  );
  const exact = a.count.exact;
  // A rendered chat template's tokens are said apart (what it added, what it assumed); else the overhead rule.
  const added = templateAdded(a.count) ?? t('chat overhead');
  const parts = [
    t(
      'prompt **{0}** tokens ({1} content + {2}, {3}{4})',
      formatTokenCount(a.count.inputTokens, exact, a.count.corrected, t),
      formatTokens(a.count.contentTokens, exact),
      added,
      `\`${a.count.tokenizer}\``,
      exact ? '' : t(', approximate'),
    ),
  ];
  const index = a.parsed.messages.findIndex((m) => offset >= m.range.start && offset <= m.range.end);
  const message = index >= 0 ? a.count.messages[index] : undefined;
  if (message) parts.push(t('this {0} message **{1}**', message.role, formatTokens(message.tokens, exact)));
  if (selectionTokens === 'pending') parts.push(t('selection: counting…'));
  else if (selectionTokens !== undefined) parts.push(t('selection **{0}**', formatTokens(selectionTokens, exact)));
  lines.push(t('Tokens: {0}', parts.join(' · ')), '');
  // What needs acting on comes before the table, inside the hover's first screen (VS Code caps its height at
  // about 250 px): failing requests, the SLO, the cheaper target.
  // Requests that would fail (retired model, prompt over the window), for every target: errors, not advice.
  const errors = a.targets.flatMap((t) => t.errors);
  if (errors.length > 0) lines.push(...errors.map((e) => `$(error) ${markdownText(e)}`), '');
  else if (primary?.advice) lines.push(`$(warning) ${markdownText(primary.advice)}`, '');
  if (cheapest) lines.push(cheapest, '');
  const pending = pendingLines(a, cheapestPending, t);
  if (pending.length > 0) lines.push(pending.join('  \n'), '');
  lines.push(scenarioLine(a, t), '');
  lines.push(...hoverTable(a, t), '');
  const template = countBasis(a.count);
  const details = [
    ...(template ? [t('Tokens: {0}.', markdownText(template))] : []),
    ...footnotes(a, t),
    t('$/1k calls: one cold call that fills the cache, then 999 warm ones (1,000 cold without a warm figure).'),
    t('Bound: {0}.', a.targets.map((e) => `${markdownText(e.label)} — ${e.phase}`).join('; ')),
  ];
  // The label names engine and scope; the range's derivation is said once per self-hosted target.
  const ranges = a.targets.flatMap((e) =>
    e.cold.estimate.assumptions && !e.calibratedOn
      ? [`${markdownText(e.label)}: ${markdownText(e.cold.estimate.assumptions.rangeLabel)}`]
      : [],
  );
  if (ranges.length > 0) details.push(t('TTFT range {0}.', ranges.join('; ')));
  const pricing = a.targets.filter((e) => e.pricing.length > 0);
  if (pricing.length > 0)
    details.push(
      t(
        'Cost assumes: {0}.',
        pricing.map((e) => `${markdownText(e.label)} — ${markdownText(e.pricing.join('; '))}`).join(' · '),
      ),
    );
  if (a.count.variables.length > 0)
    details.push(
      t(
        'Unfilled variables counted as their literal text: {0}',
        a.count.variables.map((v) => markdownCode(v, 80)).join(', '),
      ),
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
      ...(ordered.length > 5 ? [t('… and {0} more', String(ordered.length - 5))] : []),
    );
  }
  return lines.join('\n');
}
