import './zodJitless';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { log } from './log';
import type { CompareViewState } from '../webview/compare/state';
import type { ResultsViewState } from '../webview/results/state';
import { registerAgentTools } from './agentTools';
import { PromptAnalyzer, type DocumentAnalysis } from './analysis/analyzer';
import { Calibrations } from './bench/calibrations';
import { registerBenchmark } from './bench/register';
import { ComparePanel } from './commands/compare';
import { openExamplePrompt } from './commands/example';
import { showWorkspaceReport } from './commands/report';
import { registerTargetCommands, targetPicker, type EffectivePrimary } from './commands/targets';
import { TargetSwitcher } from './commands/switchTarget';
import { isPromptDocument, promptSelector } from './promptDocuments';
import { CheapestLine } from './surfaces/cheapest';
import { PromptCodeActions, registerFindingCommands } from './surfaces/codeActions';
import { PromptCodeLensProvider } from './surfaces/codeLens';
import { PrefixDecorations } from './surfaces/decorations';
import { PromptDiagnostics } from './surfaces/diagnostics';
import { EditorSurfaces } from './surfaces/editorSurfaces';
import { PromptHoverProvider } from './surfaces/hover';
import { PromptStatusBar } from './surfaces/statusBar';
import { readSettings, settingsCache } from './settings';
import { ExtensionTables } from './tables';
import { RoleFoldingProvider } from './folding';
import { loadedTokenizers } from '../core/tokenize/registry';

/** What activate() returns: a small API the integration tests read. */
export interface PromptLensApi {
  statusBarText(): string;
  /** What Select Target… would show for the active editor. */
  targetPicker(): Promise<{ placeHolder: string; items: Array<{ label: string; description?: string }> }>;
  /** The status bar summary's tooltip, as Markdown source. */
  statusBarTooltip(): string;
  targetText(): string;
  analysis(document: vscode.TextDocument): Promise<DocumentAnalysis | undefined>;
  resultsState(): ResultsViewState | undefined;
  compareState(): CompareViewState | undefined;
  /** What the last "Use" (Compare) or Select Target… said had changed for the prompt in view. */
  lastTargetChange(): string | undefined;
  /** Where benchmark history and other per-workspace data are kept. */
  historyRoot(): string;
  /** The output channel's last lines. */
  logLines(): readonly string[];
  /** How long activate() took, which vocabularies it loaded (none) and whether it started the worker (no). */
  activation: { ms: number; vocabularies: string[]; workerRunning: boolean };
  /** Vocabularies loaded in the extension host itself (analysis loads them in its worker only). */
  hostVocabularies(): string[];
  analysisWorkerRunning(): boolean;
  /** How many calls of each kind the host has sent to the analysis worker (count, findings, scanPacked, …). */
  analysisWorkerCalls(): Record<string, number>;
  /** Makes the worker drop a document's text without the host knowing: what a lost worker state looks like to it. */
  dropWorkerText(document: vscode.TextDocument): Promise<void>;
  /**
   * The clock Calibrate Endpoint times requests on: a test gives the clock of a simulator on virtual
   * time, so the fit is exact under any load; undefined restores performance.now.
   */
  useCalibrationClock(now: (() => number) | undefined): void;
}

/**
 * Activation registers providers and commands only; the analysis worker starts, and loads
 * vocabularies, when the first prompt is analysed.
 */
export function activate(context: vscode.ExtensionContext): PromptLensApi {
  const started = performance.now();
  const tables = new ExtensionTables();
  const calibrations = new Calibrations(context.globalState);
  const analyzer = new PromptAnalyzer(tables, calibrations, () => new Worker(join(__dirname, 'analysis.worker.js')));
  // The target picker marks the primary in effect for the active prompt (its front matter may override it).
  const activePrimary = async (): Promise<EffectivePrimary | undefined> => {
    const document = vscode.window.activeTextEditor?.document;
    const analysis = document && isPromptDocument(document) ? await analyzer.analyze(document) : undefined;
    const primary = analysis?.targets[0];
    if (!primary) return undefined;
    return { id: primary.id, ...(analysis.frontMatterTarget ? { frontMatter: analysis.frontMatterTarget } : {}) };
  };
  const statusBar = new PromptStatusBar();
  const diagnostics = new PromptDiagnostics();
  const decorations = new PrefixDecorations();
  const codeLens = new PromptCodeLensProvider(analyzer);
  const cheapest = new CheapestLine(analyzer);
  const switcher = new TargetSwitcher(tables, analyzer);
  const compare = new ComparePanel(context.extensionUri, analyzer, (id, uri) => switcher.use(id, uri));
  const bench = registerBenchmark(context, tables, calibrations, analyzer, () => analyzer.invalidate());
  stopRuns = bench.stopRuns;
  // Providers follow promptLens.include: re-registered with the new selector when it changes.
  const hover = new PromptHoverProvider(analyzer, cheapest);
  const codeActions = new PromptCodeActions(diagnostics);
  const folding = new RoleFoldingProvider();
  const registerProviders = () => {
    const selector = promptSelector();
    return vscode.Disposable.from(
      vscode.languages.registerHoverProvider(selector, hover),
      vscode.languages.registerCodeLensProvider(selector, codeLens),
      vscode.languages.registerCodeActionsProvider(selector, codeActions, {
        providedCodeActionKinds: PromptCodeActions.kinds,
      }),
      vscode.languages.registerFoldingRangeProvider(selector, folding),
    );
  };
  let providers = registerProviders();
  context.subscriptions.push(
    log,
    tables,
    analyzer,
    statusBar,
    diagnostics,
    decorations,
    compare,
    cheapest,
    new EditorSurfaces(analyzer, statusBar, diagnostics, decorations, codeLens, cheapest),
    ...bench.disposables,
    ...registerTargetCommands(tables, activePrimary, (id) => switcher.use(id)),
    ...registerFindingCommands(),
    ...registerAgentTools(analyzer),
    { dispose: () => providers.dispose() },
    vscode.commands.registerCommand('promptLens.openExamplePrompt', () => openExamplePrompt(context.extensionUri)),
    vscode.commands.registerCommand('promptLens.showWorkspaceReport', () =>
      showWorkspaceReport(analyzer, context.storageUri ?? context.globalStorageUri),
    ),
    vscode.commands.registerCommand('promptLens.compareTargets', (uri?: unknown) =>
      compare.show(uri instanceof vscode.Uri ? uri : undefined),
    ),
    // The one settings listener: the settings cache first, then, in order, what is built from settings.
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('promptLens')) return;
      settingsCache.clear();
      tables.invalidate();
      analyzer.invalidate();
      if (e.affectsConfiguration('promptLens.include')) {
        providers.dispose();
        providers = registerProviders();
      }
      if (e.affectsConfiguration('promptLens.targets')) compare.refreshPrimary();
    }),
    // Trust lets workspace values of restricted settings count.
    vscode.workspace.onDidGrantWorkspaceTrust(() => {
      settingsCache.clear();
      tables.invalidate();
      analyzer.invalidate();
    }),
  );
  // The built-in tables' first validation (tens of milliseconds in steps on the host's thread) is done a moment
  // after activation rather than in the first prompt's analysis, while its first hovers are asked; no worker starts.
  const warmUp = setTimeout(() => void tables.get().catch(() => undefined), TABLES_WARM_UP_MS);
  context.subscriptions.push({ dispose: () => clearTimeout(warmUp) });
  const activation = {
    ms: performance.now() - started,
    vocabularies: loadedTokenizers(),
    workerRunning: analyzer.workerRunning,
  };
  return {
    activation,
    hostVocabularies: () => loadedTokenizers(),
    analysisWorkerRunning: () => analyzer.workerRunning,
    analysisWorkerCalls: () => analyzer.workerCalls(),
    dropWorkerText: (document) => analyzer.dropWorkerText(document),
    statusBarText: () => statusBar.text,
    targetPicker: async () =>
      targetPicker((await tables.get()).tables, readSettings().settings.targets, await activePrimary()),
    statusBarTooltip: () => statusBar.tooltipText,
    targetText: () => statusBar.targetText,
    analysis: (document) => analyzer.analyze(document),
    resultsState: () => bench.panel.state,
    compareState: () => compare.state,
    lastTargetChange: () => switcher.lastMessage,
    historyRoot: () => bench.storage,
    logLines: () => log.recent(),
    useCalibrationClock: bench.useCalibrationClock,
  };
}

/** After activation (the extension activates when the workspace has prompt files, before one is opened). */
const TABLES_WARM_UP_MS = 1000;

let stopRuns: (() => Promise<void>) | undefined;

/** A benchmark still running when VS Code closes is cancelled and saved, marked partial. */
export function deactivate(): Promise<void> | undefined {
  return stopRuns?.();
}
