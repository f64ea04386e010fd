import * as vscode from 'vscode';
import { runBenchmark } from '../../core/bench/runner';
import { percentile } from '../../core/bench/stats';
import { fitTtft, MIN_R2, toProfile, type Sample } from '../../core/calibrate/fit';
import { DEFAULT_FRACTIONS, promptPrefix } from '../../core/calibrate/prefixes';
import { messageTokenCounter } from '../../core/bench/prediction';
import { parseTargetId, resolveTarget, targetTokenizerId, type ResolvedTarget } from '../../core/estimate';
import { DEFAULT_TOKENIZER, getTokenizer } from '../../core/tokenize/registry';
import { readSettings } from '../settings';
import { keyFor, preparePromptRun, type BenchDeps } from './benchmarkCommand';
import type { StoredCalibration } from './calibrations';

const REQUESTS_PER_LENGTH = 4;

/**
 * "Calibrate Endpoint…": the active prompt at several lengths, cold, one at a time; fits
 * TTFT ≈ a + b·n (+ c·n²) and saves it for the endpoint's target, unless the fit is poor.
 */
export async function calibrateEndpoint(
  deps: BenchDeps,
  uri?: vscode.Uri,
  endpointName?: string,
): Promise<StoredCalibration | undefined> {
  const run = await preparePromptRun(deps, uri, endpointName, 'calibrate with it');
  if (!run) return undefined;
  const { document, endpoint, messages } = run;
  if (!endpoint.target) {
    void vscode.window.showErrorMessage(
      `Prompt Latency Lens: endpoint ${endpoint.name} has no "target"; calibration saves a profile for a target, so map it to one first.`,
    );
    return undefined;
  }
  let target: ResolvedTarget;
  try {
    target = resolveTarget(parseTargetId(endpoint.target), (await deps.tables.get()).tables);
  } catch (error) {
    void vscode.window.showErrorMessage(
      `Prompt Latency Lens: endpoint ${endpoint.name}'s target: ${(error as Error).message}`,
    );
    return undefined;
  }
  const apiKey = await keyFor(deps, endpoint);
  if (apiKey === null) return undefined;
  const { benchmark } = readSettings(document.uri).settings;
  const tokenizer = getTokenizer(DEFAULT_TOKENIZER);

  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Calibrating ${endpoint.name}`, cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      const samples: Sample[] = [];
      const tpots: number[] = [];
      for (const fraction of DEFAULT_FRACTIONS) {
        if (abort.signal.aborted) break;
        progress.report({ message: `${Math.round(fraction * 100)}% of the prompt` });
        const prefix = promptPrefix(messages, fraction);
        // Where the endpoint reports no usage: counted as the prediction the fit will replace counts it.
        const counted = messageTokenCounter(prefix)(targetTokenizerId(target));
        const result = await runBenchmark({
          endpoint,
          ...(apiKey ? { apiKey } : {}),
          messages: prefix,
          maxTokens: Math.min(benchmark.maxTokens, 32),
          requests: REQUESTS_PER_LENGTH,
          warmup: 0,
          concurrency: [1],
          cache: 'cold',
          timeoutMs: benchmark.timeoutMs,
          signal: abort.signal,
          countTokens: (t) => tokenizer.count(t),
        });
        for (const r of result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests))) {
          if (!r.ok || r.ttftMs === undefined) continue;
          samples.push({ inputTokens: r.inputTokens ?? counted, ttftMs: r.ttftMs });
          if (r.tpotMs !== undefined) tpots.push(r.tpotMs);
        }
      }
      return { samples, tpots, cancelled: abort.signal.aborted };
    },
  );
  if (outcome.cancelled) {
    void vscode.window.showWarningMessage('Prompt Latency Lens: calibration cancelled; nothing saved.');
    return undefined;
  }
  const fit = fitTtft(outcome.samples);
  const tpot =
    outcome.tpots.length > 0
      ? percentile(
          [...outcome.tpots].sort((a, b) => a - b),
          50,
        )
      : undefined;
  if (!fit || tpot === undefined) {
    void vscode.window.showErrorMessage(
      `Prompt Latency Lens: calibration of ${endpoint.name} failed: too few successful requests (${outcome.samples.length}).`,
    );
    return undefined;
  }
  const summary = `TTFT ≈ ${fit.a.toFixed(1)} ms + ${(fit.b * 1000).toFixed(3)} ms/1k tok${fit.c ? ` + ${(fit.c * 1e6).toExponential(2)} ms/(1k tok)²` : ''} (R² ${fit.r2.toFixed(3)}, RMSE ${fit.rmseMs.toFixed(1)} ms), TPOT ${tpot.toFixed(1)} ms`;
  if (fit.r2 < MIN_R2) {
    void vscode.window.showWarningMessage(
      `Prompt Latency Lens: calibration fit for ${endpoint.name} is poor — ${summary}, below R² ${MIN_R2}; not used.`,
    );
    return undefined;
  }
  const stored: StoredCalibration = {
    endpoint: endpoint.name,
    profile: toProfile(fit, tpot, new Date().toISOString().slice(0, 10)),
    r2: fit.r2,
    rmseMs: fit.rmseMs,
    model: fit.model,
    samples: outcome.samples.length,
  };
  await deps.calibrations.set(target.id, stored);
  void vscode.window.showInformationMessage(
    `Prompt Latency Lens: calibrated ${target.id} from ${endpoint.name}: ${summary}. Hovers now use it.`,
  );
  return stored;
}
