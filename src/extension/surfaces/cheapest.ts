import * as vscode from 'vscode';
import { cheapestMeetingLine } from '../../core/compare';
import type { DocumentAnalysis, PromptAnalyzer } from '../analysis/analyzer';

/**
 * Above this the comparison's fresh count with every candidate tokenizer would keep the analysis
 * worker busy for seconds after each pause (delaying the next status-bar count); the line is left out.
 */
const MAX_CHARS = 200_000;

/** Comparing counts the prompt with every candidate's tokenizer: done once typing pauses, not per keystroke. */
const IDLE_MS = 1000;

/**
 * The hover's "cheapest target meeting the SLO" line, computed once edits pause (not in the hover,
 * not on every keystroke) and cached per document version.
 */
export class CheapestLine implements vscode.Disposable {
  private readonly lines = new Map<string, { version: number; line: string }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(private readonly analyzer: PromptAnalyzer) {}

  get(document: vscode.TextDocument): string | undefined {
    const hit = this.lines.get(document.uri.toString());
    return hit?.version === document.version ? hit.line : undefined;
  }

  /** Computes the line for this analysis after IDLE_MS unless the document changes first. */
  schedule(document: vscode.TextDocument, analysis: DocumentAnalysis): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        if (document.version === analysis.version && !document.isClosed) void this.update(document, analysis).catch((error: unknown) => console.error('Prompt Latency Lens: comparison failed', error));
      }, IDLE_MS),
    );
  }

  private async update(document: vscode.TextDocument, analysis: DocumentAnalysis): Promise<void> {
    if (document.getText().length > MAX_CHARS || analysis.tooLarge) return;
    const result = await this.analyzer.compare(document, analysis);
    if (document.version !== analysis.version) return;
    this.lines.set(document.uri.toString(), { version: analysis.version, line: `$(lightbulb) ${cheapestMeetingLine(result)} — **Compare Targets** for all` });
  }

  forget(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.delete(key);
    this.lines.delete(key);
  }

  dispose(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
  }
}
