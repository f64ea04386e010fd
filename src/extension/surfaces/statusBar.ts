import * as vscode from 'vscode';
import { formatCount, formatMs, formatTokens, formatUsd, scaleUsd } from '../../core/format';
import { markdownText } from '../../core/markdown';
import type { DocumentAnalysis } from '../analysis/analyzer';
import { footnotes, pendingLines, scenarioLine, statusLine, tooltipTable } from './targetTable';

/**
 * Two items: the active prompt's `tokens · TTFT · $` (tooltip: every target) and the primary
 * target (click: the target picker). Hidden when the active editor is not a prompt.
 * Right of the editor's own items (line/column, indentation, encoding, language: priorities 100.1–100.5): a narrow
 * window drops the leftmost right-hand items first, and the figures are what this extension is for.
 */
export class PromptStatusBar implements vscode.Disposable {
  private readonly summary = vscode.window.createStatusBarItem(
    'promptLens.summary',
    vscode.StatusBarAlignment.Right,
    99,
  );
  private readonly target = vscode.window.createStatusBarItem(
    'promptLens.target',
    vscode.StatusBarAlignment.Right,
    99.5,
  );

  /** The analysis shown: the analyzer's event and each refresh both show it, and the tooltip is built once. */
  private shown: DocumentAnalysis | undefined;

  constructor() {
    this.summary.name = vscode.l10n.t('Prompt Latency Lens: tokens, TTFT and cost');
    this.summary.command = 'promptLens.compareTargets';
    this.target.name = vscode.l10n.t('Prompt Latency Lens: primary target');
    this.target.command = 'promptLens.selectTarget';
  }

  get text(): string {
    return this.summary.text;
  }

  get targetText(): string {
    return this.target.text;
  }

  /** The summary item's tooltip as Markdown source (for the integration tests). */
  get tooltipText(): string {
    const tooltip = this.summary.tooltip;
    return typeof tooltip === 'string' ? tooltip : (tooltip?.value ?? '');
  }

  show(analysis: DocumentAnalysis): void {
    if (analysis === this.shown) return;
    this.shown = analysis;
    const primary = analysis.targets[0];
    if (analysis.tooLarge) {
      this.summary.text = vscode.l10n.t('$(warning) prompt {0}', analysis.tooLarge);
      this.summary.tooltip = undefined;
    } else {
      // A request to the primary target would fail (retired, over the window): the item says so.
      const icon = primary && primary.errors.length > 0 ? '$(error)' : '$(pulse)';
      this.summary.text = `${icon} ${statusLine(primary?.inputTokens ?? analysis.count.inputTokens, analysis.count.exact, primary, vscode.l10n.t, primary?.corrected ?? analysis.count.corrected)}`;
      this.summary.tooltip = tooltip(analysis);
    }
    this.target.text = `$(server) ${primary?.label ?? vscode.l10n.t('no target')}`;
    this.target.tooltip = analysis.frontMatterTarget
      ? vscode.l10n.t(
          "Prompt Latency Lens: primary target for this prompt, from its front matter (model: {0}); the settings' primary is {1} — click to choose",
          analysis.frontMatterTarget,
          analysis.configuredPrimary ?? vscode.l10n.t('none'),
        )
      : vscode.l10n.t(
          'Prompt Latency Lens: primary target ({0}) — click to choose',
          primary?.serving ?? vscode.l10n.t('none'),
        );
    this.summary.show();
    this.target.show();
  }

  hide(): void {
    this.shown = undefined;
    this.summary.hide();
    this.target.hide();
  }

  dispose(): void {
    this.summary.dispose();
    this.target.dispose();
  }
}

/** The always-on instructions, when the workspace has any: every chat request carries them first. */
function instructionLines(a: DocumentAnalysis): string[] {
  const t = vscode.l10n.t;
  const b = a.instructions;
  if (!b || b.alwaysOn.length === 0) return [];
  const files = b.alwaysOn.length === 1 ? t('1 file') : t('{0} files', String(b.alwaysOn.length));
  const over = b.tokens > b.maxTokens ? ` — ${t('over the {0}-token budget', formatCount(b.maxTokens))}` : '';
  return [
    '',
    `${t('**Always-on instructions** ({0}, prepended to every chat request): {1} tokens', files, formatTokens(b.tokens, a.count.exact))}${over}`,
    '',
    `| ${t('on {0}', markdownText(b.target))} | ${t('TTFT added')} | ${t('$/request')} | ${t('$/1,000 requests')} |`,
    '|---|---|---|---|',
    `| ${t('cold')} | +${formatMs(b.cold.ttftMs)} | ${formatUsd(b.cold.costUsd)} | ${formatUsd(scaleUsd(b.cold.costUsd, 1000))} |`,
    `| ${t('warm ({0} cached)', formatTokens(b.cacheableTokens, a.count.exact))} | +${formatMs(b.warm.ttftMs)} | ${formatUsd(b.warm.costUsd)} | ${formatUsd(scaleUsd(b.warm.costUsd, 1000))} |`,
    '',
    t('Sent first and unchanged on every request: the natural cacheable prefix.'),
  ];
}

function tooltip(a: DocumentAnalysis): vscode.MarkdownString {
  const t = vscode.l10n.t;
  const markdown = new vscode.MarkdownString(
    [
      t('**Prompt Latency Lens** — per target'),
      '',
      scenarioLine(a, t),
      '',
      ...tooltipTable(a, t),
      '',
      ...footnotes(a, t).map((f) => `_${f}_  `),
      ...instructionLines(a),
      ...pendingLines(a, false, t).map((p) => `\n${p}`),
      ...a.targets.flatMap((e) => e.errors).map((e) => `\n$(error) ${markdownText(e)}`),
      '',
      t('Click: compare all targets'),
    ].join('\n'),
  );
  markdown.supportThemeIcons = true;
  return markdown;
}
