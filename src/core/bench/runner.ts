import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ChatMessage } from '../prompt/types';
import { nonceSource, withNonce } from './benchPrompt';
import { measureRequest, type FetchLike, type StreamRequest } from './client';
import type { EndpointConfig } from './endpoints';
import { WIRE_FORMATS } from './kinds';
import type { BenchResult, CacheMode, CacheSpeedup, LevelResult, ModeResult, RequestRecord, Slo } from './result';
import { DEFAULT_SLO, levelPredictionError, shiftInterval, summarizeLevel } from './stats';
import { StopSwitch } from './stop';
import { STREAM_WORKER_OPTIONS, StreamPool } from './streamPool';

export const DEFAULT_CONCURRENCY = [1, 4, 16];
/**
 * From this many open streams on, a level's streams are measured in worker threads (StreamPool):
 * one event loop that reads and parses hundreds of streams delays their timestamps by milliseconds
 * (bench/client.bench.ts measures both ways).
 */
export const POOL_FROM_CONCURRENCY = 64;

/** Stream workers for levels of high concurrency (see POOL_FROM_CONCURRENCY). */
export interface StreamWorkers {
  /** Starts one worker running core/bench/stream.worker.ts (bundled: dist/stream.worker.js). */
  spawn: () => Worker;
  /** Workers in the pool; default: the machine's CPUs, 2 to 4. */
  size?: number;
  /** Default POOL_FROM_CONCURRENCY. */
  fromConcurrency?: number;
}

/** Stream workers from the bundle beside the caller's (`dist/stream.worker.js` beside cli.js and extension.js). */
export function bundledStreamWorkers(dir: string): StreamWorkers {
  return { spawn: () => new Worker(join(dir, 'stream.worker.js'), STREAM_WORKER_OPTIONS) };
}

export interface BenchProgress {
  cache: CacheMode;
  level: string;
  /** Requests of this level finished so far (warm-up excluded) and how many the level runs. */
  done: number;
  total: number;
  failed: number;
  lastTtftMs?: number;
}

export interface BenchOptions {
  endpoint: EndpointConfig;
  /** Sent as the endpoint kind expects; never echoed in errors or the result. */
  apiKey?: string;
  messages: ChatMessage[];
  maxTokens: number;
  /** Measured requests per level. */
  requests: number;
  /**
   * Warm-up rounds before each level, excluded from the statistics (default 1; in warm mode at
   * least 1, as it primes the cache). A round is as wide as the level's concurrency, so every
   * connection the level uses is open (TCP and TLS set up) before measuring starts.
   */
  warmup?: number;
  /** A concurrency sweep; ignored when ratePerSecond is set. */
  concurrency?: number[];
  /** Poisson arrivals at this mean rate instead of a fixed concurrency. */
  ratePerSecond?: number;
  cache: CacheMode | 'both';
  timeoutMs: number;
  /** Whole-run limit; when hit, the result is marked partial. */
  maxDurationMs?: number;
  slo?: Slo;
  signal?: AbortSignal;
  onProgress?: (progress: BenchProgress) => void;
  /** After each level: the result so far, for live views. */
  onLevel?: (soFar: BenchResult) => void;
  countTokens: (text: string) => number;
  fetch?: FetchLike;
  /**
   * Measure high-concurrency levels in worker threads. Not used with `fetch` or `now` (tests' fakes),
   * which a worker cannot call, nor for Poisson arrivals.
   */
  streamWorkers?: StreamWorkers;
  now?: () => number;
  random?: () => number;
  /** What the estimation engine predicts for this endpoint, shown beside the measurement. */
  predicted?: { ttftMs?: number; tpotMs?: number };
}

export function buildStreamRequest(
  endpoint: EndpointConfig,
  apiKey: string | undefined,
  messages: ChatMessage[],
  maxTokens: number,
): StreamRequest {
  const wire = WIRE_FORMATS[endpoint.kind];
  return {
    url: `${endpoint.baseUrl}${wire.path}`,
    headers: {
      'content-type': 'application/json',
      accept: wire.framing === 'sse' ? 'text/event-stream' : 'application/x-ndjson',
      // Compression makes proxies and servers buffer a stream; ask for it plain.
      'accept-encoding': 'identity',
      ...endpoint.headers,
      ...wire.headers(apiKey),
    },
    body: JSON.stringify(wire.body({ model: endpoint.model, messages, maxTokens })),
    wire,
  };
}

type Level = { label: string; concurrency: number } | { label: string; ratePerSecond: number };

/** What a run will do, fixed before it starts. */
interface RunPlan {
  levels: Level[];
  modes: CacheMode[];
  slo: Slo;
  now: () => number;
  random: () => number;
  startedAt: string;
}

/** What a run has measured so far (every level finished up to now) and why it ended early, if it did. */
interface RunState {
  modes: ModeResult[];
  partialReason: BenchResult['partialReason'];
}

/**
 * Runs the whole benchmark; never throws for endpoint failures, which become classified errors.
 * Named steps: plan → for each cache mode and level, warm up (priming the cache in warm mode) → measure
 * the level → summarise it; the result is built from the run state after each level and at the end.
 */
export async function runBenchmark(options: BenchOptions): Promise<BenchResult> {
  const stop = new StopSwitch(options.signal, options.maxDurationMs, 'time-limit');
  // Every in-flight request listens on it: at concurrency 1,024 that many listeners is expected, not a leak.
  setMaxListeners(0, stop.signal);
  const plan = planRun(options);
  const sender = requestSender(options, plan, stop.signal);
  const pool = poolFor(options);
  const state: RunState = { modes: [], partialReason: undefined };
  try {
    for (const cache of plan.modes) {
      const mode: ModeResult = { cache, levels: [] };
      state.modes.push(mode);
      for (const level of plan.levels) {
        if (stop.signal.aborted) break;
        const levelPool = pool.forLevel(level);
        const send = (c: CacheMode) => sender(c, levelPool);
        const warmupErrors = await warmUp(options, level, cache, send, stop.signal);
        const measured = await measureLevel(options, plan, level, cache, send, stop.signal);
        mode.levels.push(summariseLevel(options, plan, level, warmupErrors, measured));
        state.partialReason = stop.reason;
        options.onLevel?.(buildResult(options, plan, state));
      }
    }
  } finally {
    stop.close();
    await pool.close();
  }
  state.partialReason = stop.reason;
  return buildResult(options, plan, state);
}

/** The run's stream pool, started when the first level that needs it starts, closed after the run. */
function poolFor(options: BenchOptions): {
  forLevel: (level: Level) => StreamPool | undefined;
  close: () => Promise<void>;
} {
  const workers = options.streamWorkers;
  let pool: StreamPool | undefined;
  const usable = workers !== undefined && options.fetch === undefined && options.now === undefined;
  return {
    forLevel: (level) => {
      if (!usable || !('concurrency' in level)) return undefined;
      if (Math.min(level.concurrency, options.requests) < (workers.fromConcurrency ?? POOL_FROM_CONCURRENCY))
        return undefined;
      pool ??= new StreamPool(workers.spawn, workers.size ?? Math.min(4, Math.max(2, availableParallelism())));
      return pool;
    },
    close: async () => pool?.close(),
  };
}

function planRun(options: BenchOptions): RunPlan {
  return {
    levels:
      options.ratePerSecond !== undefined
        ? [{ label: `rate=${options.ratePerSecond}/s`, ratePerSecond: options.ratePerSecond }]
        : (options.concurrency ?? DEFAULT_CONCURRENCY).map((c) => ({ label: `c=${c}`, concurrency: c })),
    modes: options.cache === 'both' ? ['cold', 'warm'] : [options.cache],
    slo: options.slo ?? DEFAULT_SLO,
    now: options.now ?? (() => performance.now()),
    random: options.random ?? Math.random,
    startedAt: new Date().toISOString(),
  };
}

/**
 * Sends one request of a cache mode and measures it. Requests are built once per run, not per
 * request: serialising a large prompt on the loop that timestamps the other streams would add its
 * milliseconds to their timings. Cold bodies differ only in the nonce, written into a slot of the
 * one serialised body.
 */
function requestSender(
  options: BenchOptions,
  plan: RunPlan,
  signal: AbortSignal,
): (cache: CacheMode, pool?: StreamPool) => Promise<RequestRecord> {
  const nonce = nonceSource(plan.random);
  const secrets = options.apiKey ? [options.apiKey] : [];
  const request = (messages: ChatMessage[]) =>
    buildStreamRequest(options.endpoint, options.apiKey, messages, options.maxTokens);
  const slot = `PROMPTLENSNONCESLOT${nonce()}`;
  let warmRequest: StreamRequest | undefined;
  let coldRequest: StreamRequest | undefined;
  const requestFor = (cache: CacheMode): { request: StreamRequest; nonce?: string } => {
    if (cache === 'warm') return { request: (warmRequest ??= request(options.messages)) };
    coldRequest ??= request(withNonce(options.messages, slot));
    const value = nonce();
    return { request: { ...coldRequest, body: coldRequest.body.replace(slot, value) }, nonce: value };
  };
  return async (cache, pool) => {
    const sent = requestFor(cache);
    const measure = { timeoutMs: options.timeoutMs, signal, countTokens: options.countTokens, secrets };
    const record = pool
      ? await pool.measure(sent.request, measure)
      : await measureRequest(sent.request, { ...measure, fetch: options.fetch, now: plan.now });
    // Kept so the usage check can count exactly what this request sent.
    if (sent.nonce !== undefined) record.nonce = sent.nonce;
    return record;
  };
}

/**
 * Warm-up rounds before a level (in warm mode at least one: it primes the cache), each as wide as the
 * level's concurrency; how many of their requests failed.
 */
async function warmUp(
  options: BenchOptions,
  level: Level,
  cache: CacheMode,
  send: (cache: CacheMode) => Promise<RequestRecord>,
  signal: AbortSignal,
): Promise<number> {
  const rounds = Math.max(options.warmup ?? 1, cache === 'warm' ? 1 : 0);
  const width = 'concurrency' in level ? Math.min(level.concurrency, options.requests) : 1;
  let errors = 0;
  for (let i = 0; i < rounds && !signal.aborted; i++) {
    const round = await Promise.all(Array.from({ length: width }, () => send(cache)));
    errors += round.filter((r) => !r.ok).length;
  }
  return errors;
}

interface MeasuredLevel {
  /** Clock reading when the level's measured requests began. */
  t0: number;
  durationMs: number;
  records: RequestRecord[];
}

/** The level's measured requests: a closed loop at a concurrency, or Poisson arrivals at a rate. */
async function measureLevel(
  options: BenchOptions,
  plan: RunPlan,
  level: Level,
  cache: CacheMode,
  send: (cache: CacheMode) => Promise<RequestRecord>,
  signal: AbortSignal,
): Promise<MeasuredLevel> {
  const { now } = plan;
  const records: RequestRecord[] = [];
  let failed = 0;
  const one = async () => {
    const record = await send(cache);
    records.push(record);
    if (!record.ok && record.error?.class !== 'cancelled') failed++;
    options.onProgress?.({
      cache,
      level: level.label,
      done: records.length,
      total: options.requests,
      failed,
      lastTtftMs: record.ttftMs,
    });
  };
  const t0 = now();
  if ('concurrency' in level) {
    let next = 0;
    const worker = async () => {
      while (next < options.requests && !signal.aborted) {
        next++;
        await one();
      }
    };
    await Promise.all(Array.from({ length: Math.min(level.concurrency, options.requests) }, worker));
  } else {
    const inFlight: Promise<void>[] = [];
    let due = 0;
    for (let i = 0; i < options.requests && !signal.aborted; i++) {
      await sleep(due - (now() - t0), signal);
      if (signal.aborted) break;
      inFlight.push(one());
      // Exponential gaps make a Poisson process: -ln(1 − U) / λ seconds.
      due += (-Math.log(1 - plan.random()) / level.ratePerSecond) * 1000;
    }
    await Promise.all(inFlight);
  }
  return { t0, durationMs: now() - t0, records };
}

/** The level's requests on its own time axis (0 = its start), in start order, with their statistics. */
function summariseLevel(
  options: BenchOptions,
  plan: RunPlan,
  level: Level,
  warmupErrors: number,
  { t0, durationMs, records }: MeasuredLevel,
): LevelResult {
  for (const r of records) r.startMs -= t0;
  records.sort((a, b) => a.startMs - b.startMs);
  const summary = summarizeLevel(records, durationMs, plan.slo);
  const result: LevelResult = { ...levelShape(level), durationMs, warmupErrors, requests: records, summary };
  const error = options.predicted ? levelPredictionError(options.predicted, summary) : undefined;
  if (error) result.predictionErrorPct = error;
  return result;
}

/** The result as measured so far. */
function buildResult(options: BenchOptions, plan: RunPlan, state: RunState): BenchResult {
  const { name, kind, baseUrl, model, target } = options.endpoint;
  const { partialReason } = state;
  const result: BenchResult = {
    schemaVersion: 1,
    startedAt: plan.startedAt,
    endpoint: { name, kind, baseUrl, model, ...(target ? { target } : {}) },
    options: {
      requests: options.requests,
      warmup: options.warmup ?? 1,
      ...(options.ratePerSecond !== undefined
        ? { ratePerSecond: options.ratePerSecond }
        : { concurrency: plan.levels.map((l) => ('concurrency' in l ? l.concurrency : 0)) }),
      cache: options.cache,
      maxTokens: options.maxTokens,
      timeoutMs: options.timeoutMs,
      ...(options.maxDurationMs !== undefined ? { maxDurationMs: options.maxDurationMs } : {}),
    },
    slo: plan.slo,
    partial: partialReason !== undefined,
    ...(partialReason ? { partialReason } : {}),
    modes: state.modes.map((m) => ({ ...m, levels: [...m.levels] })),
  };
  if (options.cache === 'both') result.cacheSpeedup = cacheSpeedup(state.modes);
  if (options.predicted) result.prediction = options.predicted;
  return result;
}

function levelShape(level: Level): Pick<LevelResult, 'label' | 'concurrency' | 'ratePerSecond'> {
  return 'concurrency' in level
    ? { label: level.label, concurrency: level.concurrency }
    : { label: level.label, ratePerSecond: level.ratePerSecond };
}

/** Cold over warm median TTFT per level both modes measured. */
export function cacheSpeedup(modes: ModeResult[]): CacheSpeedup[] {
  const cold = modes.find((m) => m.cache === 'cold');
  const warm = modes.find((m) => m.cache === 'warm');
  if (!cold || !warm) return [];
  return cold.levels.flatMap((c) => {
    const coldTtft = c.summary.ttftMs?.p50;
    const warmTtft = warm.levels.find((l) => l.label === c.label)?.summary.ttftMs?.p50;
    const w = warm.levels.find((l) => l.label === c.label);
    if (coldTtft === undefined || warmTtft === undefined || warmTtft <= 0 || !w) return [];
    const ttfts = (level: LevelResult) =>
      level.requests.flatMap((r) => (r.ok && r.ttftMs !== undefined ? [r.ttftMs] : []));
    const shift = shiftInterval(ttfts(c), ttfts(w));
    const verdict = shift
      ? shift.low > 0
        ? 'faster'
        : shift.high < 0
          ? 'slower'
          : 'no measurable difference'
      : coldTtft > warmTtft
        ? 'faster'
        : coldTtft < warmTtft
          ? 'slower'
          : 'no measurable difference';
    return [
      {
        label: c.label,
        coldTtftP50Ms: coldTtft,
        warmTtftP50Ms: warmTtft,
        speedup: coldTtft / warmTtft,
        ...(shift ? { ttftShiftMs: shift } : {}),
        verdict,
      },
    ];
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
