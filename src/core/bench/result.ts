// The benchmark's result: plain JSON-serialisable data, saved by the extension and shown in its webview.
import type { EndpointKind } from './endpoints';

export const ERROR_CLASSES = [
  'http',
  'redirect',
  'timeout',
  'stream-error',
  'no-content',
  'not-event-stream',
  'bad-stream',
  'connection',
  'cancelled',
] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

export interface RequestError {
  class: ErrorClass;
  /** Human-readable, with the endpoint's own message where it gave one; the API key is redacted. */
  message: string;
  status?: number;
  /** From a `retry-after` header (429/503), in milliseconds. */
  retryAfterMs?: number;
}

/** One measured request. Times are milliseconds; `startMs` is relative to the start of its level. */
export interface RequestRecord {
  startMs: number;
  ok: boolean;
  /** Send → first body byte. */
  ttfbMs?: number;
  /** Send → first content token (role-only, empty and usage-only chunks are not tokens). */
  ttftMs?: number;
  /** Send → last content token; a trailing usage chunk does not extend it. */
  e2eMs?: number;
  /** Gaps between consecutive content chunks; their sum is e2eMs − ttftMs. */
  itlMs: number[];
  /** (e2e − ttft) / (outputTokens − 1); absent for fewer than 2 output tokens. */
  tpotMs?: number;
  outputTokens?: number;
  /** `usage` when the endpoint reported the count, `counted` when the client tokenised the text. */
  outputTokensSource?: 'usage' | 'counted';
  inputTokens?: number;
  /** The nonce a cold request carried (see withNonce), so its exact prompt can be counted afterwards. */
  nonce?: string;
  finishReason?: string;
  error?: RequestError;
}

/**
 * A metric's summary as a level holds it. This client's own runs fill every field (a Distribution);
 * a result imported from another tool's report without per-request data has only what that report
 * gave (vLLM saves mean, median, std and the percentiles it was asked for; Artillery no stdev).
 */
export interface MetricSummary {
  count?: number;
  mean: number;
  stdev?: number;
  min?: number;
  max?: number;
  p50: number;
  p90?: number;
  p95?: number;
  p99?: number;
}

/** Summary of one metric's samples. Percentiles use linear interpolation (numpy's default). */
export interface Distribution extends MetricSummary {
  count: number;
  /** Population standard deviation (numpy's default, ddof = 0). */
  stdev: number;
  min: number;
  max: number;
  p90: number;
  p95: number;
  p99: number;
}

export interface Slo {
  ttftMs: number;
  tpotMs: number;
}

export interface LevelSummary {
  /** Requests counted: every finished request, ok or failed (cancelled ones are left out). */
  requests: number;
  succeeded: number;
  failed: number;
  errorsByClass: Partial<Record<ErrorClass, number>>;
  /** One example message per error class, to show the user what went wrong. */
  errorExamples: Partial<Record<ErrorClass, string>>;
  ttfbMs: MetricSummary | null;
  ttftMs: MetricSummary | null;
  tpotMs: MetricSummary | null;
  itlMs: MetricSummary | null;
  e2eMs: MetricSummary | null;
  /** Per request: outputTokens / e2e seconds. */
  outputTokensPerSecond: MetricSummary | null;
  /** All output tokens of successful requests / level duration. */
  aggregateOutputTokensPerSecond: number;
  /** Successful requests / level duration. */
  requestsPerSecond: number;
  /** Requests meeting both SLOs / level duration; null when an imported report cannot tell. */
  goodput: number | null;
  /**
   * Share (0–1) of counted requests that succeeded and met both SLOs; null when an imported report
   * has neither per-request data nor a goodput measured against these SLOs.
   */
  sloShare: number | null;
}

export interface LevelResult {
  /** `c=4` for a concurrency level, `rate=2/s` for a Poisson rate. */
  label: string;
  concurrency?: number;
  ratePerSecond?: number;
  durationMs: number;
  warmupErrors: number;
  requests: RequestRecord[];
  summary: LevelSummary;
  /** Percent error of the prediction against the measured median, when a prediction was given. */
  predictionErrorPct?: { ttft?: number; tpot?: number };
  /**
   * How an imported level's summary was made: `requests` = recomputed here from the report's
   * per-request data (this client's statistics), `aggregate` = the tool's own summary figures.
   */
  summaryFrom?: 'requests' | 'aggregate';
}

export type CacheMode = 'cold' | 'warm';

export interface ModeResult {
  cache: CacheMode;
  levels: LevelResult[];
}

export interface CacheSpeedup {
  label: string;
  coldTtftP50Ms: number;
  warmTtftP50Ms: number;
  /** cold / warm median TTFT: how much faster a prefix-cache hit makes the first token. */
  speedup: number;
  /** 95 % interval of cold − warm TTFT over the requests (absent without per-request data). */
  ttftShiftMs?: { estimate: number; low: number; high: number; confidence: number };
  /**
   * `faster`/`slower` when the interval excludes 0, else `no measurable difference` (the run's own noise); without
   * an interval, from the medians alone.
   */
  verdict?: 'faster' | 'slower' | 'no measurable difference';
}

/**
 * The benchmark's check of the local count against the bill: every request's `usage.prompt_tokens`
 * beside the local count of exactly what was sent (its nonce included).
 */
export interface UsageCheck {
  /** Requests whose endpoint reported prompt tokens. */
  requests: number;
  /** Of those, how many the local count matched exactly. */
  matched: number;
  /** A representative request (the first reported): what the endpoint billed and what was counted. */
  billed: number;
  local: number;
  /** billed − local over all reported requests. */
  minDiff: number;
  maxDiff: number;
  tokenizer: string;
  exact: boolean;
  /** The chat template the local count rendered, when it used one. */
  template?: string;
  /** A likely cause of a difference, in words. */
  hint?: string;
  /** Each distinct (local count, billed count) pair and how many requests had it (runs before this field: absent). */
  samples?: Array<{ local: number; billed: number; requests: number }>;
}

export interface BenchResult {
  schemaVersion: 1;
  startedAt: string;
  endpoint: { name: string; kind: EndpointKind; baseUrl: string; model: string; target?: string };
  options: {
    requests: number;
    warmup: number;
    concurrency?: number[];
    ratePerSecond?: number;
    cache: CacheMode | 'both';
    maxTokens: number;
    timeoutMs: number;
    maxDurationMs?: number;
  };
  slo: Slo;
  /** True when the run was cancelled or hit its time limit: some levels or requests are missing. */
  partial: boolean;
  partialReason?: 'cancelled' | 'time-limit';
  modes: ModeResult[];
  cacheSpeedup?: CacheSpeedup[];
  prediction?: { ttftMs?: number; tpotMs?: number };
  /** The endpoint's billed prompt tokens against the local count of each request sent (see usageCheck.ts). */
  usage?: UsageCheck;
  /** Absent for this client's own runs; set when the result was imported from another tool's report. */
  source?: ResultSource;
}

export const RESULT_TOOLS = ['artillery', 'vllm', 'guidellm', 'aiperf'] as const;
export type ResultTool = (typeof RESULT_TOOLS)[number];

/** Where an imported result came from and what its figures mean (see docs/interop.md). */
export interface ResultSource {
  tool: ResultTool;
  /** The report's file name (no directory: the path can hold a user name). */
  file: string;
  /** The tool's version when the report states it. */
  version?: string;
  /** How its percentiles were computed, in words (e.g. "Artillery's DDSketch, ±1% relative"). */
  percentiles: string;
  /** Where the tool's definitions differ from this client's, and what the report lacked. */
  notes: string[];
}
