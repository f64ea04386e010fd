import * as vscode from 'vscode';
import { showWarning } from '../notify';
import { log } from '../log';
import type { PromptAnalyzer } from '../analysis/analyzer';
import { readSettings } from '../settings';
import { KeyedTimers } from '../keyedTimers';
import { isPromptDocument } from '../promptDocuments';
import type { CheapestLine } from './cheapest';
import type { PromptCodeLensProvider } from './codeLens';
import type { PrefixDecorations } from './decorations';
import type { PromptDiagnostics } from './diagnostics';
import { ShownOnce } from './shownOnce';
import type { PromptStatusBar } from './statusBar';

const DEBOUNCE_MS = 150;

/** Keeps every surface in step with the analyzer: on open, on edit (debounced), on settings change. */
export class EditorSurfaces implements vscode.Disposable {
  private readonly timers = new KeyedTimers();
  /** Settings and table problems already shown (each once per session, not on every keystroke). */
  private readonly shownProblems = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly documents = new ShownOnce<vscode.TextDocument>();
  private readonly editors = new ShownOnce<vscode.TextEditor>();

  constructor(
    private readonly analyzer: PromptAnalyzer,
    private readonly statusBar: PromptStatusBar,
    private readonly diagnostics: PromptDiagnostics,
    private readonly decorations: PrefixDecorations,
    private readonly codeLens: PromptCodeLensProvider,
    private readonly cheapest: CheapestLine,
  ) {
    this.disposables.push(
      vscode.window.onDidChangeActiveTextEditor(() => this.refreshActive()),
      vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d, 0)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document, DEBOUNCE_MS)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.timers.cancel(d.uri.toString());
        this.diagnostics.clear(d.uri);
        this.cheapest.forget(d);
        this.documents.forget(d);
      }),
      analyzer.onDidChange((uri) => {
        if (uri === undefined) this.refreshAll();
        else this.showKnown(uri);
      }),
      analyzer.onDidUpdateFindings((document) => void this.refresh(document)),
    );
    this.refreshAll();
  }

  private schedule(document: vscode.TextDocument, delay: number): void {
    if (!isPromptDocument(document)) return;
    this.timers.schedule(document.uri.toString(), delay, () => void this.refresh(document));
  }

  private refreshAll(): void {
    for (const document of vscode.workspace.textDocuments) this.schedule(document, 0);
    this.refreshActive();
  }

  private refreshActive(): void {
    const document = vscode.window.activeTextEditor?.document;
    if (!document || !isPromptDocument(document)) this.statusBar.hide();
    else void this.refresh(document);
  }

  /** The status bar shows a document's counts and estimates as soon as they are in, before its findings. */
  private showKnown(uri: vscode.Uri): void {
    const document = vscode.window.activeTextEditor?.document;
    if (document?.uri.toString() !== uri.toString() || !readSettings(document.uri).settings.statusBar.enabled) return;
    const known = this.analyzer.latest(document);
    if (known) this.statusBar.show(known);
  }

  /** Analyses one document and updates what shows it. Errors are reported, never thrown into VS Code. */
  async refresh(document: vscode.TextDocument): Promise<void> {
    try {
      const analysis = await this.analyzer.analyze(document);
      if (!analysis || document.isClosed) return;
      const { settings } = readSettings(document.uri);
      for (const problem of analysis.problems.filter((p) => !this.shownProblems.has(p))) {
        this.shownProblems.add(problem);
        void showWarning(vscode.l10n.t('Prompt Latency Lens: {0}', problem));
      }
      if (vscode.window.activeTextEditor?.document === document) {
        if (settings.statusBar.enabled) this.statusBar.show(analysis);
        else this.statusBar.hide();
      }
      // The same analysis under the same settings is already on every surface of this document and editor.
      if (this.documents.changed(document, analysis, settings)) {
        if (settings.diagnostics.enabled) this.diagnostics.update(document, analysis);
        else this.diagnostics.clear(document.uri);
        this.codeLens.refresh();
        this.cheapest.schedule(document, analysis);
      }
      for (const editor of vscode.window.visibleTextEditors.filter((e) => e.document === document)) {
        if (!this.editors.changed(editor, analysis, settings)) continue;
        if (settings.decorations.enabled) this.decorations.apply(editor, analysis);
        else this.decorations.clear(editor);
      }
    } catch (error) {
      log.error('analysis failed', error);
    }
  }

  dispose(): void {
    this.timers.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
