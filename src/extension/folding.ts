import * as vscode from 'vscode';
import { parseFileName, textLength } from './promptDocuments';
import { roleFoldingSpans } from '../core/prompt/folding';
import { readSettings } from './settings';

/**
 * Folds each role section of a `.prompt` / `.prompty` file at its marker line (`system:`, `# user:`…). VS Code asks
 * again for the same version (another editor on it, a view state restored): the ranges are kept per version, so a
 * megabyte's text is copied and scanned on the host's thread once per version at most.
 */
export class RoleFoldingProvider implements vscode.FoldingRangeProvider {
  private readonly known = new WeakMap<vscode.TextDocument, { version: number; ranges: vscode.FoldingRange[] }>();

  provideFoldingRanges(document: vscode.TextDocument): vscode.FoldingRange[] {
    const known = this.known.get(document);
    if (known?.version === document.version) return known.ranges;
    const ranges = this.compute(document);
    this.known.set(document, { version: document.version, ranges });
    return ranges;
  }

  private compute(document: vscode.TextDocument): vscode.FoldingRange[] {
    // A file too large to analyse is not folded either: its length without copying its text.
    const length = textLength(document);
    if (length > readSettings(document.uri).settings.maxFileBytes) return [];
    const text = document.getText();
    return roleFoldingSpans(parseFileName(document), text)
      .map((span) => new vscode.FoldingRange(document.positionAt(span.start).line, document.positionAt(span.end).line))
      .filter((range) => range.end > range.start);
  }
}
