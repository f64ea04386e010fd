import * as vscode from 'vscode';
import { log } from '../log';
import { cheapestMeetingLine } from '../../core/compare/compare';
import { markdownText } from '../../core/markdown';
import type { DocumentAnalysis, PromptAnalyzer } from '../analysis/analyzer';
import { KeyedTimers } from '../keyedTimers';
import { textLength } from '../promptDocuments';

/**
 * Above this, counting afresh with the candidates' tokenizers that no target uses (the targets'
 * counts are reused) would keep the analysis worker busy for seconds after each pause, delaying the
 * next status-bar count; the line is left out.
 */
const MAX_CHARS = 200_000;

/** The comparison counts the prompt with other tokenizers too: done once typing pauses, not per keystroke. */
const IDLE_MS = 1000;

/**
 * The hover's "cheapest target meeting the SLO" line, computed once edits pause (not in the hover,
 * not on every keystroke) and cached per document version.
 */
export class CheapestLine implements vscode.Disposable {
  /** By document: the line of a version, or none when its comparison failed (then it is not pending either). */
  private readonly lines = new Map<string, { version: number; line?: string }>();
  private readonly timers = new KeyedTimers();

  constructor(private readonly analyzer: PromptAnalyzer) {}

  get(document: vscode.TextDocument): string | undefined {
    const hit = this.lines.get(document.uri.toString());
    return hit?.version === document.version ? hit.line : undefined;
  }

  /** Whether the line for this version is still to come (it is left out above MAX_CHARS). */
  pending(document: vscode.TextDocument, analysis: DocumentAnalysis): boolean {
    if (analysis.tooLarge || this.lines.get(document.uri.toString())?.version === document.version) return false;
    return textLength(document) <= MAX_CHARS;
  }

  /** Computes the line for this analysis after IDLE_MS unless the document changes first. */
  schedule(document: vscode.TextDocument, analysis: DocumentAnalysis): void {
    this.timers.schedule(document.uri.toString(), IDLE_MS, () => {
      if (document.version === analysis.version && !document.isClosed)
        void this.update(document, analysis).catch((error: unknown) => {
          log.error('comparison failed', error);
          if (document.version === analysis.version)
            this.lines.set(document.uri.toString(), { version: analysis.version });
        });
    });
  }

  private async update(document: vscode.TextDocument, analysis: DocumentAnalysis): Promise<void> {
    if (textLength(document) > MAX_CHARS || analysis.tooLarge) return;
    const result = await this.analyzer.compare(document, analysis);
    if (document.version !== analysis.version) return;
    this.lines.set(document.uri.toString(), {
      version: analysis.version,
      line: `$(lightbulb) ${markdownText(cheapestMeetingLine(result))} — ${vscode.l10n.t('**Compare Targets** for all')}`,
    });
  }

  forget(document: vscode.TextDocument): void {
    this.timers.cancel(document.uri.toString());
    this.lines.delete(document.uri.toString());
  }

  dispose(): void {
    this.timers.dispose();
  }
}
