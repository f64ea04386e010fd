import { join } from 'node:path';
import * as vscode from 'vscode';
import { showError, showInfo, showWarning } from '../notify';
import type { BenchResult } from '../../core/bench/result';
import type { PromptAnalyzer } from '../analysis/analyzer';
import type { ExtensionTables } from '../tables';
import { ApiKeys, registerApiKeyCommands } from './apiKeys';
import { benchmarkPrompt, rememberEndpoint, untrustedMessage, type BenchDeps } from './benchmarkCommand';
import { calibrateEndpoint } from './calibrateCommand';
import { exportCalibration, importCalibration } from './calibrationFiles';
import type { Calibrations } from './calibrations';
import { BenchHistory } from './history';
import { HostConsent, type HostDecision } from './hostConsent';
import { compareWith, importResults } from './importResults';
import { LocalSimulator } from './localSimulator';
import { ResultsPanel } from './resultsPanel';

async function askHost(endpointName: string, host: string): Promise<HostDecision | undefined> {
  const allow = vscode.l10n.t('Send key');
  const deny = vscode.l10n.t('Never for this host');
  const answer = await vscode.window.showWarningMessage(
    vscode.l10n.t(
      'Send your API key for endpoint "{0}" to {1}? Endpoint settings can come from the workspace; only allow hosts you expect.',
      endpointName,
      host,
    ),
    { modal: true },
    allow,
    deny,
  );
  return answer === allow ? 'allow' : answer === deny ? 'deny' : undefined;
}

/**
 * "Start Local Simulator": benchmarking sends prompts to an endpoint, so, like it, only in a trusted workspace.
 * Returns the session's endpoint (for the walkthrough's next button and the tests).
 */
async function startSimulator(deps: BenchDeps) {
  if (!vscode.workspace.isTrusted) {
    void showWarning(untrustedMessage());
    return undefined;
  }
  try {
    const endpoint = await deps.simulator.start();
    await rememberEndpoint(deps.context, endpoint.name);
    void showInfo(
      vscode.l10n.t(
        'Prompt Latency Lens: a local simulator of {0} (simulated latencies, not a real model) serves {1} for this window; Benchmark This Prompt offers it as "{2}".',
        endpoint.target ?? endpoint.model,
        endpoint.baseUrl,
        endpoint.name,
      ),
    );
    return endpoint;
  } catch (error) {
    void showError(
      vscode.l10n.t('Prompt Latency Lens: the local simulator did not start: {0}', (error as Error).message),
    );
    return undefined;
  }
}

/** File paths given to a command (tests, other extensions); anything else means "ask". */
function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string') ? value : undefined;
}

/** Benchmark, calibration, key and export commands; returns the pieces tests look at. */
export function registerBenchmark(
  context: vscode.ExtensionContext,
  tables: ExtensionTables,
  calibrations: Calibrations,
  analyzer: PromptAnalyzer,
  onCalibrated: () => void,
): {
  panel: ResultsPanel;
  storage: string;
  disposables: vscode.Disposable[];
  stopRuns: () => Promise<void>;
  useCalibrationClock: (now: (() => number) | undefined) => void;
} {
  const panel = new ResultsPanel(context.extensionUri);
  const keys = new ApiKeys(context.secrets);
  const storage = (context.storageUri ?? context.globalStorageUri).fsPath;
  const deps: BenchDeps = {
    context,
    keys,
    consent: new HostConsent(context.globalState, askHost),
    panel,
    tables,
    calibrations,
    history: new BenchHistory(storage),
    analyzer,
    inFlight: new Set(),
    simulator: new LocalSimulator(tables, join(__dirname, 'simulator.worker.js')),
  };
  let running: Promise<BenchResult | undefined> | undefined;
  const disposables = [
    panel,
    deps.simulator,
    vscode.commands.registerCommand('promptLens.startSimulator', () => startSimulator(deps)),
    vscode.commands.registerCommand('promptLens.stopSimulator', async () => {
      if (await deps.simulator.stop())
        void showInfo(vscode.l10n.t('Prompt Latency Lens: the local simulator stopped.'));
      else void showInfo(vscode.l10n.t('Prompt Latency Lens: no local simulator is running.'));
    }),
    ...registerApiKeyCommands(keys),
    vscode.commands.registerCommand('promptLens.benchmarkPrompt', async (uri?: vscode.Uri, endpointName?: string) => {
      if (running) {
        void showInfo(vscode.l10n.t('Prompt Latency Lens: a benchmark is already running.'));
        return undefined;
      }
      running = benchmarkPrompt(deps, uri instanceof vscode.Uri ? uri : undefined, endpointName);
      try {
        return await running;
      } finally {
        running = undefined;
      }
    }),
    vscode.commands.registerCommand('promptLens.cancelBenchmark', () => {
      for (const run of deps.inFlight) run.abort();
    }),
    vscode.commands.registerCommand('promptLens.calibrateEndpoint', async (uri?: vscode.Uri, endpointName?: string) => {
      const calibration = await calibrateEndpoint(deps, uri instanceof vscode.Uri ? uri : undefined, endpointName);
      if (calibration) onCalibrated(); // hovers and the status bar re-estimate with the measured profile
      return calibration;
    }),
    vscode.commands.registerCommand('promptLens.importCalibration', async (uri?: vscode.Uri, targetId?: string) => {
      const imported = await importCalibration(
        tables,
        calibrations,
        uri instanceof vscode.Uri ? uri : undefined,
        typeof targetId === 'string' ? targetId : undefined,
      );
      if (imported) onCalibrated();
      return imported;
    }),
    vscode.commands.registerCommand('promptLens.exportCalibration', (targetId?: string, uri?: vscode.Uri) =>
      exportCalibration(
        calibrations,
        typeof targetId === 'string' ? targetId : undefined,
        uri instanceof vscode.Uri ? uri : undefined,
      ),
    ),
    vscode.commands.registerCommand('promptLens.exportBenchmark', (format?: 'json' | 'csv', path?: string) =>
      panel.export(format ?? 'json', path),
    ),
    vscode.commands.registerCommand('promptLens.importBenchmarkResults', (paths?: unknown, prompt?: unknown) =>
      importResults(panel, deps.history, stringList(paths), prompt instanceof vscode.Uri ? prompt : undefined),
    ),
    vscode.commands.registerCommand('promptLens.compareBenchmarkWith', (paths?: unknown) =>
      compareWith(panel, stringList(paths)),
    ),
  ];
  /** Closing VS Code mid-run: abort, and let the run save its partial result (bounded wait). */
  const stopRuns = async () => {
    for (const run of deps.inFlight) run.abort();
    if (running)
      await Promise.race([running.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 4000))]);
  };
  const useCalibrationClock = (now: (() => number) | undefined) => {
    if (now) deps.now = now;
    else delete deps.now;
  };
  return { panel, storage, disposables, stopRuns, useCalibrationClock };
}
