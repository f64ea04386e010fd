import * as vscode from 'vscode';
import { showError, showInfo, showWarning } from '../notify';
import { messageTokenCounter } from '../../core/bench/prediction';
import { MIN_R2, r2Text } from '../../core/calibrate/fit';
import { measureCalibration } from '../../core/calibrate/measure';
import { DEFAULT_FRACTIONS } from '../../core/calibrate/prefixes';
import { buildCalibrationFile, type CalibrationFile } from '../../core/calibrate/profileFile';
import { parseTargetId, resolveTarget, targetModelId, targetTokenizer, type ResolvedTarget } from '../../core/estimate';
import { DEFAULT_TOKENIZER, getTokenizer } from '../../core/tokenize/registry';
import { readSettings } from '../settings';
import { keyFor, preparePromptRun, type BenchDeps } from './benchmarkCommand';

const REQUESTS_PER_LENGTH = 4;

/**
 * "Calibrate Endpoint…": the active prompt at several lengths, cold, one at a time (the measurement
 * and fit of `prompt-lens calibrate`); saves the profile for the endpoint's target, unless the fit is poor.
 */
export async function calibrateEndpoint(
  deps: BenchDeps,
  uri?: vscode.Uri,
  endpointName?: string,
): Promise<CalibrationFile | undefined> {
  const run = await preparePromptRun(deps, uri, endpointName, vscode.l10n.t('calibrate with it'));
  if (!run) return undefined;
  const { document, endpoint, messages } = run;
  if (!endpoint.target) {
    void showError(
      vscode.l10n.t(
        'Prompt Latency Lens: endpoint {0} has no "target"; calibration saves a profile for a target, so map it to one first.',
        endpoint.name,
      ),
    );
    return undefined;
  }
  let target: ResolvedTarget;
  try {
    // Keyed as the hover resolves the target, so the profile is found there (same default engine).
    const { engine } = readSettings(document.uri).settings;
    target = resolveTarget(parseTargetId(endpoint.target), (await deps.tables.get()).tables, { engine });
  } catch (error) {
    void showError(
      vscode.l10n.t("Prompt Latency Lens: endpoint {0}'s target: {1}", endpoint.name, (error as Error).message),
    );
    return undefined;
  }
  const apiKey = await keyFor(deps, endpoint);
  if (apiKey === null) return undefined;
  const { benchmark } = readSettings(document.uri).settings;
  const output = getTokenizer(DEFAULT_TOKENIZER);
  // Local counts use the target's tokenizer: the one the hover's estimates count with.
  const localTokenizer = targetTokenizer(target);

  const measurement = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t('Calibrating {0}', endpoint.name),
      cancellable: true,
    },
    async (progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return measureCalibration({
        endpoint,
        ...(apiKey ? { apiKey } : {}),
        messages,
        fractions: DEFAULT_FRACTIONS,
        requests: REQUESTS_PER_LENGTH,
        maxTokens: Math.max(2, Math.min(benchmark.maxTokens, 32)),
        timeoutMs: benchmark.timeoutMs,
        countLocal: (prefix) => messageTokenCounter(prefix)(localTokenizer, targetModelId(target)),
        countTokens: (t) => output.count(t),
        signal: abort.signal,
        ...(deps.now ? { now: deps.now } : {}),
        onProgress: (p) =>
          progress.report({
            message: vscode.l10n.t('{0}/{1} requests', p.done, p.total),
            increment: 100 / p.total,
          }),
      });
    },
  );
  if (measurement.cancelled) {
    void showWarning(vscode.l10n.t('Prompt Latency Lens: calibration cancelled; nothing saved.'));
    return undefined;
  }
  const built = buildCalibrationFile({
    endpoint: { name: endpoint.name, kind: endpoint.kind, baseUrl: endpoint.baseUrl, model: endpoint.model },
    target: target.id,
    localTokenizer,
    lengths: measurement.lengths,
    tpotMs: measurement.tpotMs,
    date: new Date().toISOString().slice(0, 10),
  });
  if (!built.ok) {
    const why = measurement.errors.length > 0 ? ` (${measurement.errors.join('; ')})` : '';
    void showError(
      vscode.l10n.t('Prompt Latency Lens: calibration of {0} failed: {1}{2}.', endpoint.name, built.error, why),
    );
    return undefined;
  }
  const summary = calibrationSummary(built.file);
  if (built.file.fit.r2 < MIN_R2) {
    void showWarning(
      vscode.l10n.t(
        'Prompt Latency Lens: calibration fit for {0} is poor — {1}, below R² {2} at the medians; not used.',
        endpoint.name,
        summary,
        MIN_R2,
      ),
    );
    return undefined;
  }
  await deps.calibrations.set(target.id, built.file);
  void showInfo(
    vscode.l10n.t(
      'Prompt Latency Lens: calibrated {0} from {1}: {2}. Hovers now use it.',
      target.id,
      endpoint.name,
      summary,
    ),
  );
  return built.file;
}

/**
 * "TTFT ≈ 12.0 ms + 0.350 ms/1k tok (n = endpoint tokens; R² 0.990 at the medians, 0.62 over single
 * requests, RMSE 3.1 ms), TPOT 4.0 ms".
 */
export function calibrationSummary(file: CalibrationFile): string {
  const { fit, profile, tokens } = file;
  const quadratic = fit.c !== undefined ? ` + ${(fit.c * 1e6).toExponential(2)} ms/(1k tok)²` : '';
  const basis = tokens.basis === 'usage' ? 'endpoint tokens' : `${tokens.localTokenizer} tokens`;
  return `TTFT ≈ ${fit.a.toFixed(1)} ms + ${(fit.b * 1000).toFixed(3)} ms/1k tok${quadratic} (n = ${basis}; ${r2Text(fit)}, RMSE ${fit.rmseMs.toFixed(1)} ms), TPOT ${profile.tpotMs.toFixed(1)} ms`;
}
