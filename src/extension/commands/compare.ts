import * as vscode from 'vscode';
import { showError, showWarning } from '../notify';
import { compareViewState, type CompareViewState } from '../../webview/compare/state';
import type { PromptAnalyzer } from '../analysis/analyzer';
import { readSettings } from '../settings';
import { isPromptDocument } from '../promptDocuments';
import { COMPARE_STRINGS } from '../../webview/compare/strings';
import { localised, PanelHost, type PanelSpec } from '../webview/panelHost';

const SPEC = (): PanelSpec => ({
  viewType: 'promptLens.compare',
  title: vscode.l10n.t('Compare Targets'),
  script: 'compare',
  strings: localised(COMPARE_STRINGS),
});

/** "Compare Targets": every reasonable target for the active prompt, in a sortable table. */
export class ComparePanel implements vscode.Disposable {
  private host: PanelHost<CompareViewState> | undefined;
  /** The prompt the view compares targets for. */
  private uri: vscode.Uri | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly analyzer: PromptAnalyzer,
    private readonly useTarget: (id: unknown, uri: vscode.Uri | undefined) => Promise<unknown>,
  ) {}

  get state(): CompareViewState | undefined {
    return this.host?.state;
  }

  async show(uri?: vscode.Uri): Promise<CompareViewState | undefined> {
    const document = uri ? await vscode.workspace.openTextDocument(uri) : vscode.window.activeTextEditor?.document;
    if (!document || !isPromptDocument(document)) {
      void showWarning(vscode.l10n.t('Prompt Latency Lens: open a prompt file to compare targets for it.'));
      return undefined;
    }
    const analysis = await this.analyzer.analyze(document);
    if (!analysis || analysis.tooLarge) return undefined;
    let state: CompareViewState;
    try {
      const result = await this.analyzer.compare(document, analysis);
      // The primary in effect for this prompt (front matter may choose it), resolved as Compare's rows name it.
      const primary = analysis.targets[0]?.id ?? readSettings().settings.targets[0];
      state = compareViewState(vscode.workspace.asRelativePath(document.uri), result, primary);
    } catch (error) {
      void showError(vscode.l10n.t('Prompt Latency Lens: {0}', (error as Error).message));
      return undefined;
    }
    if (!this.host) {
      const host = PanelHost.create<CompareViewState>(this.extensionUri, SPEC());
      host.onMessage((message) => {
        // Only the view's own action; a webview's messages are untrusted input.
        if (message.type === 'command' && message.command === 'promptLens.setPrimaryTarget')
          void this.useTarget(message.args?.[0], this.uri);
      });
      host.onDidDispose(() => (this.host = undefined));
      this.host = host;
    } else this.host.panel.reveal(undefined, true);
    this.uri = document.uri;
    this.host.setState(state);
    return state;
  }

  /** Marks the new primary target in an open view. */
  refreshPrimary(): void {
    const state = this.host?.state;
    if (state) this.host?.setState({ ...state, primaryTarget: readSettings().settings.targets[0] });
  }

  dispose(): void {
    this.host?.panel.dispose();
  }
}
