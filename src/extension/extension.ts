import * as vscode from 'vscode';
import { PromptHoverProvider } from './hover';
import { promptSelector, isPromptDocument } from './promptDocuments';
import { TokenStatusBar } from './statusBar';
import { TokenCounts } from './tokenCounts';
import { formatTokens } from './format';

/** What activate() returns: a small API the integration tests read. */
export interface PromptLensApi {
  statusBarText(): string;
}

export function activate(context: vscode.ExtensionContext): PromptLensApi {
  const counts = new TokenCounts();
  const statusBar = new TokenStatusBar(counts);
  context.subscriptions.push(
    statusBar,
    vscode.languages.registerHoverProvider(promptSelector(), new PromptHoverProvider(counts)),
    vscode.workspace.onDidCloseTextDocument((document) => counts.forget(document)),
    vscode.commands.registerCommand('promptLens.showTokenCount', () => {
      const document = vscode.window.activeTextEditor?.document;
      if (!document || !isPromptDocument(document)) {
        void vscode.window.showInformationMessage('Prompt Latency Lens: the active editor is not a prompt file.');
        return;
      }
      void vscode.window.showInformationMessage(`Prompt Latency Lens: ${formatTokens(counts.get(document))}`);
    }),
  );
  return { statusBarText: () => statusBar.text };
}

export function deactivate(): void {}
