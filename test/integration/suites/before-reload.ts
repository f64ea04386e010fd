// Called by the runner after the main suites, just before the harness reloads the window: starts a
// long benchmark so the reload interrupts it (the after-reload suite checks what was kept).
import * as vscode from 'vscode';
import type { BenchResult } from '../../../src/core/bench/result';
import { linearLatencyModel } from '../../../src/core/sim/latencyModel';
import { startSimulator } from '../../../src/core/sim/server';
import { extensionApi, openPrompt, sleep, waitFor } from '../helpers';

export async function prepare(): Promise<void> {
  const sim = await startSimulator({
    port: 0,
    latency: linearLatencyModel({
      prefillBaseMs: 20,
      prefillTokensPerSecond: 50_000,
      tpotBaseMs: 5,
      tpotMsPer1kContext: 0,
      tpotMsPerExtraSequence: 0,
    }),
    defaultMaxTokens: 8,
  });
  const config = vscode.workspace.getConfiguration('promptLens');
  await config.update(
    'endpoints',
    [{ name: 'reload-sim', baseUrl: sim.url, model: sim.model }],
    vscode.ConfigurationTarget.Workspace,
  );
  await config.update('benchmark.requests', 1000, vscode.ConfigurationTarget.Workspace);
  await config.update('benchmark.concurrency', [1, 2], vscode.ConfigurationTarget.Workspace);
  await config.update('benchmark.cache', 'cold', vscode.ConfigurationTarget.Workspace);
  const editor = await openPrompt('support.prompt');
  void vscode.commands.executeCommand<BenchResult>('promptLens.benchmarkPrompt', editor.document.uri, 'reload-sim');
  const api = await extensionApi();
  await waitFor(
    'the benchmark to be under way',
    () => (api.resultsState()?.running && /c=1 · \d{2,}\//.test(api.resultsState()?.progress ?? '') ? true : undefined),
    20_000,
  );
  await sleep(300);
}
