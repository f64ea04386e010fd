import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { showWarning } from '../notify';
import { benchResultCsv } from '../../core/bench/export';
import { diffResultsState, type ResultsDelta } from '../../webview/results/delta';
import { savedState } from '../../webview/protocol';
import type { ResultsViewState } from '../../webview/results/state';
import { RESULTS_STRINGS } from '../../webview/results/strings';
import { localised, PanelHost, type PanelSpec } from '../webview/panelHost';

const SPEC = (): PanelSpec => ({
  viewType: 'promptLens.benchmarkResults',
  title: vscode.l10n.t('Benchmark Results'),
  script: 'results',
  strings: localised(RESULTS_STRINGS),
});

/** The single benchmark results view; restored after a reload by its serializer. */
export class ResultsPanel implements vscode.Disposable {
  private host: PanelHost<ResultsViewState, ResultsDelta> | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly extensionUri: vscode.Uri) {
    this.disposables.push(
      vscode.window.registerWebviewPanelSerializer(SPEC().viewType, {
        deserializeWebviewPanel: async (panel, saved: unknown) => {
          this.adopt(new PanelHost(panel, extensionUri, SPEC(), diffResultsState));
          const state = savedState(saved);
          // A run that was in flight when the window closed is over (and saved as partial).
          if (isViewState(state))
            this.host?.setState(state.running ? { ...state, running: false, progress: undefined } : state);
        },
      }),
    );
  }

  /** Shows (creating if needed) the view with this state. */
  show(state: ResultsViewState): void {
    if (!this.host) this.adopt(PanelHost.create(this.extensionUri, SPEC(), diffResultsState));
    else this.host.panel.reveal(undefined, true);
    this.host!.setState(state);
  }

  /** Updates the open view without revealing it (live progress: what changed is sent, see delta.ts). */
  update(state: ResultsViewState): void {
    this.host?.setState(state);
  }

  get state(): ResultsViewState | undefined {
    return this.host?.state;
  }

  /** Writes the shown result as JSON or CSV; asks where unless a path is given. */
  async export(format: 'json' | 'csv', path?: string): Promise<string | undefined> {
    const result = this.host?.state?.result;
    if (!result) {
      void showWarning(vscode.l10n.t('Prompt Latency Lens: no benchmark result to export.'));
      return undefined;
    }
    const target =
      path ??
      (
        await vscode.window.showSaveDialog({
          filters: format === 'json' ? { JSON: ['json'] } : { CSV: ['csv'] },
          saveLabel: 'Export',
        })
      )?.fsPath;
    if (!target) return undefined;
    await writeFile(target, format === 'json' ? JSON.stringify(result, null, 2) : benchResultCsv(result));
    return target;
  }

  private adopt(host: PanelHost<ResultsViewState, ResultsDelta>): void {
    this.host?.dispose();
    this.host = host;
    host.onMessage((message) => {
      if (message.type === 'export') void this.export(message.format);
      // Only commands this view offers; a webview's messages are untrusted input.
      if (message.type === 'command' && message.command === 'promptLens.cancelBenchmark')
        void vscode.commands.executeCommand(message.command);
    });
    host.onDidDispose(() => {
      if (this.host === host) this.host = undefined;
    });
  }

  dispose(): void {
    this.host?.panel.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

function isViewState(value: unknown): value is ResultsViewState {
  return typeof value === 'object' && value !== null && typeof (value as ResultsViewState).prompt === 'string';
}
