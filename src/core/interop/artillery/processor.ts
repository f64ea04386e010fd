// The Artillery processor: esbuild bundles this file with the benchmark runner and client into
// dist/artillery-processor.js, and `bench --export artillery` appends the run to it. Each level is
// measured by runBenchmark itself (one level, one cache mode), so requests, nonces, warm priming,
// timing and statistics are the built-in client's; this file only turns its records into metrics.
import { runBenchmark } from '../../bench/runner';
import type { ErrorClass, LevelResult, RequestRecord } from '../../bench/result';
import { meetsSlo } from '../../bench/stats';
import { loadO200k } from '../../tokenize/o200k';
import type { Tokenizer } from '../../tokenize/types';
import { exportedRunSchema, runLevels, type RunLevel } from '../run';
import { LEVEL_METRICS, metricName, runCounter } from './scenario';

/** What Artillery hands a `function` step (only the parts used). */
interface ArtilleryContext {
  vars: Record<string, unknown>;
}
interface ArtilleryEvents {
  emit(type: 'counter' | 'histogram', name: string, value: number): void;
}
type Done = (error?: Error) => void;

export interface Processor {
  promptLensLevel(context: ArtilleryContext, events: ArtilleryEvents, done: Done): void;
}

export function createProcessor(input: unknown): Processor {
  const parsed = exportedRunSchema.safeParse(input);
  if (!parsed.success) throw new Error(`prompt-lens processor: the embedded run is invalid: ${parsed.error.message}`);
  const run = parsed.data;
  const levels = new Map(runLevels(run).map((l) => [l.key, l]));
  // The built-in client's DEFAULT_TOKENIZER, loaded only if an endpoint reports no usage.
  let tokenizer: Tokenizer | undefined;
  let deadline: number | undefined;

  async function measureLevel(context: ArtilleryContext, events: ArtilleryEvents): Promise<void> {
    const key = context.vars.$loopElement;
    const level = typeof key === 'string' ? levels.get(key) : undefined;
    if (!level) throw new Error(`prompt-lens processor: unknown level ${JSON.stringify(key)} in the scenario`);
    // The whole-run limit counts from the first level this worker starts, as the built-in client's does.
    if (run.maxDurationMs !== undefined) deadline ??= Date.now() + run.maxDurationMs;
    const remaining = deadline === undefined ? undefined : deadline - Date.now();
    if (remaining !== undefined && remaining <= 0) {
      events.emit('counter', metricName(level, LEVEL_METRICS.counters.partial), 1);
      return;
    }
    // `-t URL` (Artillery's target) points the scenario elsewhere without editing it.
    const target = typeof context.vars.target === 'string' && context.vars.target ? context.vars.target : undefined;
    const apiKey = process.env[run.apiKeyEnv]?.trim() || undefined;
    const result = await runBenchmark({
      endpoint: { ...run.endpoint, ...(target ? { baseUrl: target.replace(/\/+$/, '') } : {}) },
      ...(apiKey ? { apiKey } : {}),
      messages: run.messages,
      maxTokens: run.maxTokens,
      requests: run.requests,
      warmup: run.warmup,
      ...(level.ratePerSecond !== undefined
        ? { ratePerSecond: level.ratePerSecond }
        : { concurrency: [level.concurrency ?? 1] }),
      cache: level.cache,
      timeoutMs: run.timeoutMs,
      ...(remaining !== undefined ? { maxDurationMs: remaining } : {}),
      slo: run.slo,
      countTokens: (text) => (tokenizer ??= loadO200k()).count(text),
    });
    const measured = result.modes[0]?.levels[0];
    events.emit('counter', runCounter(run.id), 1);
    if (result.partial) events.emit('counter', metricName(level, LEVEL_METRICS.counters.partial), 1);
    if (!measured) return;
    emitLevel(level, measured, Date.now(), events, (r) => meetsSlo(r, run.slo));
    // Metrics carry counts only: the endpoint's own words go to the worker's log (already redacted).
    for (const [cls, example] of Object.entries(measured.summary.errorExamples))
      console.error(
        `prompt-lens ${level.key}: ${cls} ×${measured.summary.errorsByClass[cls as ErrorClass] ?? 0}: ${example}`,
      );
  }

  return {
    promptLensLevel(context, events, done) {
      measureLevel(context, events).then(
        () => done(),
        (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
      );
    },
  };
}

/** One level's records as Artillery counters and histograms (cancelled requests only as a count). */
function emitLevel(
  level: RunLevel,
  measured: LevelResult,
  endedAt: number,
  events: ArtilleryEvents,
  metSlo: (r: RequestRecord) => boolean,
): void {
  const { histograms: H, counters: C } = LEVEL_METRICS;
  const count = (metric: string, value = 1) => events.emit('counter', metricName(level, metric), value);
  const sample = (metric: string, value: number | undefined) => {
    if (value !== undefined && Number.isFinite(value)) events.emit('histogram', metricName(level, metric), value);
  };
  sample(H.start, endedAt - measured.durationMs);
  sample(H.end, endedAt);
  count(C.warmupErrors, measured.warmupErrors);
  for (const r of measured.requests) {
    if (r.error?.class === 'cancelled') {
      count(C.cancelled);
      continue;
    }
    count(C.requests);
    if (!r.ok) {
      count(C.failed);
      count(`${C.errors}.${r.error?.class ?? 'connection'}`);
      continue;
    }
    count(C.ok);
    if (metSlo(r)) count(C.sloMet);
    if (r.outputTokens !== undefined) count(C.outputTokens, r.outputTokens);
    sample(H.ttfb, r.ttfbMs);
    sample(H.ttft, r.ttftMs);
    sample(H.tpot, r.tpotMs);
    sample(H.e2e, r.e2eMs);
    if (r.outputTokens !== undefined && r.e2eMs) sample(H.outputTokensPerSecond, (r.outputTokens * 1000) / r.e2eMs);
    for (const gap of r.itlMs) sample(H.itl, gap);
  }
}
