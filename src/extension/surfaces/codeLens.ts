import * as vscode from 'vscode';
import type { PromptAnalyzer } from '../analysis/analyzer';
import { readSettings } from '../settings';
import { templateAdded, countBasis } from '../../core/chat/templateText';
import { formatMs, formatTokens, markCorrected } from '../../core/format';

/**
 * Above each message: its tokens and share of the cold TTFT (the status bar's headline); on the first line,
 * "Benchmark this prompt".
 */
export class PromptCodeLensProvider implements vscode.CodeLensProvider {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(private readonly analyzer: PromptAnalyzer) {}

  refresh(): void {
    this.emitter.fire();
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (!readSettings(document.uri).settings.codeLens.enabled) return [];
    const analysis = await this.analyzer.analyze(document);
    if (!analysis || analysis.tooLarge) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    const lenses = [
      new vscode.CodeLens(top, {
        title: vscode.l10n.t('$(pulse) Benchmark this prompt'),
        command: 'promptLens.benchmarkPrompt',
        arguments: [document.uri],
      }),
    ];
    // The chat template's own tokens (role markers, default system prompt, dates) belong to no message.
    const added = templateAdded(analysis.count);
    if (added)
      lenses.push(
        new vscode.CodeLens(top, {
          title: vscode.l10n.t('{0} tok', added),
          tooltip: countBasis(analysis.count),
          command: 'promptLens.compareTargets',
          arguments: [document.uri],
        }),
      );
    const primary = analysis.targets[0];
    const content = analysis.count.contentTokens || 1;
    analysis.parsed.messages.forEach((message, i) => {
      const tokens = analysis.count.messages[i]?.tokens ?? 0;
      // Prefill time is close to linear in tokens, so a message's share of tokens is its share of TTFT.
      const share = Math.round((tokens / content) * 100);
      const ttft = primary
        ? vscode.l10n.t(' · {0}% of cold TTFT (≈{1})', share, formatMs((primary.cold.ttftMs.p50 * tokens) / content))
        : '';
      const line = document.positionAt(message.range.start).line;
      lenses.push(
        new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: vscode.l10n.t(
            '{0}: {1}{2}',
            message.role,
            markCorrected(
              vscode.l10n.t('{0} tok', formatTokens(tokens, analysis.count.exact)),
              analysis.count.corrected,
              vscode.l10n.t,
            ),
            ttft,
          ),
          command: 'promptLens.compareTargets',
          arguments: [document.uri],
        }),
      );
    });
    return lenses;
  }
}
