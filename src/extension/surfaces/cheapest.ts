import * as vscode from 'vscode';
import { cheapestMeetingLine } from '../../core/compare';
import { compareFor } from '../analysis/compareFor';
import type { DocumentAnalysis } from '../analysis/analyzer';
import type { Calibrations } from '../bench/calibrations';
import type { ExtensionTables } from '../tables';

/** Above this the comparison's per-tokenizer counts would cost too much per edit; the line is left out. */
const MAX_CHARS = 200_000;

/**
 * The hover's "cheapest target meeting the SLO" line, computed after each analysis (not in the
 * hover) and cached per document version.
 */
export class CheapestLine {
  private readonly lines = new Map<string, { version: number; line: string }>();

  constructor(
    private readonly tables: ExtensionTables,
    private readonly calibrations: Calibrations,
  ) {}

  get(document: vscode.TextDocument): string | undefined {
    const hit = this.lines.get(document.uri.toString());
    return hit?.version === document.version ? hit.line : undefined;
  }

  async update(document: vscode.TextDocument, analysis: DocumentAnalysis): Promise<void> {
    const text = document.getText();
    if (text.length > MAX_CHARS || analysis.tooLarge) return;
    const { tables } = await this.tables.get();
    const result = compareFor(document, analysis, tables, this.calibrations);
    this.lines.set(document.uri.toString(), { version: analysis.version, line: `$(lightbulb) ${cheapestMeetingLine(result)} — **Compare Targets** for all` });
  }

  forget(document: vscode.TextDocument): void {
    this.lines.delete(document.uri.toString());
  }
}
