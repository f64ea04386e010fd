import * as vscode from 'vscode';
import { parseFileName } from './promptDocuments';
import { roleFoldingSpans } from '../core/prompt/folding';
import { readSettings } from './settings';

/** Folds each role section of a `.prompt` / `.prompty` file at its marker line (`system:`, `# user:`…). */
export class RoleFoldingProvider implements vscode.FoldingRangeProvider {
  provideFoldingRanges(document: vscode.TextDocument): vscode.FoldingRange[] {
    const text = document.getText();
    // One linear pass; a file too large to analyse is not folded either.
    if (text.length > readSettings(document.uri).settings.maxFileBytes) return [];
    return roleFoldingSpans(parseFileName(document), text)
      .map((span) => new vscode.FoldingRange(document.positionAt(span.start).line, document.positionAt(span.end).line))
      .filter((range) => range.end > range.start);
  }
}
