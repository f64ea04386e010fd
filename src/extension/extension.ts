import * as vscode from 'vscode';
import { registerBenchmark } from './bench/register';
import { Calibrations } from './bench/calibrations';
import type { ResultsViewState } from '../webview/results/state';
import { PromptHoverProvider } from './hover';
import { promptSelector, isPromptDocument } from './promptDocuments';
import { TokenStatusBar } from './statusBar';
import { ExtensionTables } from './tables';
import { TokenCounts } from './tokenCounts';
import { formatTokens } from './format';

/** What activate() returns: a small API the integration tests read. */
export interface PromptLensApi {
  statusBarText(): string;
  resultsState(): ResultsViewState | undefined;
  /** Where benchmark history and other per-workspace data are kept. */
  historyRoot(): string;
}

export function activate(context: vscode.ExtensionContext): PromptLensApi {
  const counts = new TokenCounts();
  const statusBar = new TokenStatusBar(counts);
  const tables = new ExtensionTables();
  const calibrations = new Calibrations(context.globalState);
  const bench = registerBenchmark(context, tables, calibrations);
  context.subscriptions.push(
    statusBar,
    tables,
    ...bench.disposables,
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
  return { statusBarText: () => statusBar.text, resultsState: () => bench.panel.state, historyRoot: () => bench.storage };
}

export function deactivate(): void {}
