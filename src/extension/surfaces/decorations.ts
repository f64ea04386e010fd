import * as vscode from 'vscode';
import type { DocumentAnalysis } from '../analysis/analyzer';
import { formatTokens } from '../../core/format';

/**
 * A subtle mark on the cacheable prefix: a thin bar in the gutter side of its lines and, where it
 * ends, an inline note with its size. Theme colours only.
 */
export class PrefixDecorations implements vscode.Disposable {
  private readonly prefix = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    borderWidth: '0 0 0 2px',
    borderStyle: 'solid',
    borderColor: new vscode.ThemeColor('editorInfo.foreground'),
    overviewRulerColor: new vscode.ThemeColor('editorInfo.foreground'),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly end = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), margin: '0 0 0 1em', fontStyle: 'italic' },
  });

  apply(editor: vscode.TextEditor, analysis: DocumentAnalysis | undefined): void {
    const cacheable = analysis?.cacheable;
    if (!cacheable || cacheable.endOffset <= 0) {
      this.clear(editor);
      return;
    }
    const end = editor.document.positionAt(cacheable.endOffset);
    editor.setDecorations(this.prefix, [new vscode.Range(0, 0, end.line, 0)]);
    const note = `◀ cacheable prefix ends: ${formatTokens(cacheable.tokens)} tokens (${cacheable.source})`;
    editor.setDecorations(this.end, [
      { range: new vscode.Range(end, end), renderOptions: { after: { contentText: note } } },
    ]);
  }

  clear(editor: vscode.TextEditor): void {
    editor.setDecorations(this.prefix, []);
    editor.setDecorations(this.end, []);
  }

  dispose(): void {
    this.prefix.dispose();
    this.end.dispose();
  }
}
