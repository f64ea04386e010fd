import * as vscode from 'vscode';
import { formatTokens } from './format';
import { isPromptDocument } from './promptDocuments';
import type { TokenCounts } from './tokenCounts';

const DEBOUNCE_MS = 150;

/** Shows the active prompt's token count; hidden for other editors. */
export class TokenStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('promptLens.tokens', vscode.StatusBarAlignment.Right, 100);
  private readonly disposables: vscode.Disposable[] = [this.item];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly counts: TokenCounts) {
    this.item.name = 'Prompt Latency Lens: Tokens';
    this.item.command = 'promptLens.showTokenCount';
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.update()),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document === vscode.window.activeTextEditor?.document) this.schedule();
      }),
    );
    this.update();
  }

  /** The text shown now (for the command and tests). */
  get text(): string {
    return this.item.text;
  }

  private schedule(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.update(), DEBOUNCE_MS);
  }

  update(): void {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || !isPromptDocument(document)) {
      this.item.hide();
      return;
    }
    const count = this.counts.get(document);
    this.item.text = `$(symbol-number) ${formatTokens(count)}`;
    this.item.tooltip = `Prompt Latency Lens: ${formatTokens(count)} (${count.tokenizer})`;
    this.item.show();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
