// Pure statistics over measured requests: no I/O, no printing.
import { formatMs } from '../format';
import type { BenchResult, CacheSpeedup, Distribution, ErrorClass, LevelSummary, RequestRecord, Slo } from './result';

export const DEFAULT_SLO: Slo = { ttftMs: 500, tpotMs: 30 };
/** Share of a level's requests that must meet both SLOs for the level to pass (CLI --slo min=, the results view). */
export const DEFAULT_SLO_MIN_SHARE = 0.9;

/**
 * The p-th percentile (0–100) of ascending values by linear interpolation between closest ranks:
 * rank h = (n − 1)·p/100, value = x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋]). This is numpy's default
 * (`method='linear'`), which vLLM's benchmark uses.
 */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const h = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function distribution(values: readonly number[]): Distribution | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  const variance = sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / sorted.length;
  return {
    count: sorted.length,
    mean,
    stdev: Math.sqrt(variance),
    min: sorted[0]!,
    max: sorted[sorted.length - 1]!,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
  };
}

/**
 * A request meets the SLOs when it succeeded, its TTFT ≤ the TTFT target and its TPOT ≤ the TPOT
 * target; a request with one output token has no TPOT and is judged on TTFT alone (as vLLM does).
 */
export function meetsSlo(r: RequestRecord, slo: Slo): boolean {
  return r.ok && r.ttftMs !== undefined && r.ttftMs <= slo.ttftMs && (r.tpotMs === undefined || r.tpotMs <= slo.tpotMs);
}

/** Summarises one level; `durationMs` is first send → last completion. Cancelled requests are left out. */
export function summarizeLevel(records: readonly RequestRecord[], durationMs: number, slo: Slo): LevelSummary {
  const counted = records.filter((r) => r.error?.class !== 'cancelled');
  const ok = counted.filter((r) => r.ok);
  const seconds = durationMs / 1000;
  const perSecond = (n: number) => (seconds > 0 ? n / seconds : 0);
  const errorsByClass: Partial<Record<ErrorClass, number>> = {};
  const errorExamples: Partial<Record<ErrorClass, string>> = {};
  for (const r of counted) {
    if (!r.error) continue;
    errorsByClass[r.error.class] = (errorsByClass[r.error.class] ?? 0) + 1;
    errorExamples[r.error.class] ??= r.error.message;
  }
  const pick = (f: (r: RequestRecord) => number | undefined) => ok.map(f).filter((v): v is number => v !== undefined);
  const good = counted.filter((r) => meetsSlo(r, slo)).length;
  const outputTokens = pick((r) => r.outputTokens).reduce((s, v) => s + v, 0);
  return {
    requests: counted.length,
    succeeded: ok.length,
    failed: counted.length - ok.length,
    errorsByClass,
    errorExamples,
    ttfbMs: distribution(pick((r) => r.ttfbMs)),
    ttftMs: distribution(pick((r) => r.ttftMs)),
    tpotMs: distribution(pick((r) => r.tpotMs)),
    itlMs: distribution(ok.flatMap((r) => r.itlMs)),
    e2eMs: distribution(pick((r) => r.e2eMs)),
    outputTokensPerSecond: distribution(
      pick((r) => (r.outputTokens !== undefined && r.e2eMs ? (r.outputTokens * 1000) / r.e2eMs : undefined)),
    ),
    aggregateOutputTokensPerSecond: perSecond(outputTokens),
    requestsPerSecond: perSecond(ok.length),
    goodput: perSecond(good),
    sloShare: counted.length > 0 ? good / counted.length : 0,
  };
}

/** Signed percent error of a prediction against a measured value: +20 means predicted 20% too high. */
export function percentError(predicted: number, measured: number): number {
  return ((predicted - measured) / measured) * 100;
}

/** Percent error of a prediction against a level's measured medians (absent when nothing compares). */
export function levelPredictionError(
  predicted: { ttftMs?: number; tpotMs?: number },
  summary: Pick<LevelSummary, 'ttftMs' | 'tpotMs'>,
): { ttft?: number; tpot?: number } | undefined {
  const out: { ttft?: number; tpot?: number } = {};
  if (predicted.ttftMs !== undefined && summary.ttftMs) out.ttft = percentError(predicted.ttftMs, summary.ttftMs.p50);
  if (predicted.tpotMs !== undefined && summary.tpotMs) out.tpot = percentError(predicted.tpotMs, summary.tpotMs.p50);
  return Object.keys(out).length ? out : undefined;
}

export interface SloVerdict {
  pass: boolean;
  /** One line per level that missed, e.g. `cold c=16: 72% met the SLOs (needs 90%)`. */
  failures: string[];
}

/**
 * A level passes when at least `minShare` (0–1) of its requests met both SLOs (and it has requests);
 * an imported level whose share is unknown does not pass.
 */
export function levelPasses(summary: LevelSummary, minShare: number): boolean {
  return summary.requests > 0 && summary.sloShare !== null && summary.sloShare >= minShare;
}

/** "72%", or "unknown" for an imported level without per-request data. */
export function shareText(share: number | null): string {
  return share === null ? 'unknown' : `${Math.round(share * 100)}%`;
}

/**
 * An --slo verdict: every measured level must pass (levelPasses), and the run must be whole — a run
 * stopped by its time limit or cancelled never passes, since the levels it did not finish (often
 * the highest concurrency, the one most likely to fail) were never judged.
 */
export function sloVerdict(
  result: Pick<BenchResult, 'modes' | 'partial' | 'partialReason'>,
  minShare: number,
): SloVerdict {
  const failures = result.modes.flatMap((m) =>
    m.levels
      .filter((l) => !levelPasses(l.summary, minShare))
      .map((l) =>
        l.summary.sloShare === null
          ? `${m.cache} ${l.label}: the share that met the SLOs is unknown (the report has no per-request data)`
          : `${m.cache} ${l.label}: ${shareText(l.summary.sloShare)} met the SLOs (needs ${Math.round(minShare * 100)}%)`,
      ),
  );
  if (result.partial)
    failures.push(
      `the run is partial (${result.partialReason === 'time-limit' ? 'stopped by its time limit' : 'cancelled'}): levels or requests that did not run were not judged`,
    );
  return { pass: failures.length === 0 && result.modes.some((m) => m.levels.length > 0), failures };
}

/** A shift between two samples and its confidence interval, in the samples' unit. */
export interface ShiftInterval {
  /** Hodges–Lehmann estimate: the median of every difference a − b. */
  estimate: number;
  low: number;
  high: number;
  confidence: number;
}

/** The standard normal's 97.5th percentile: a two-sided 95 % interval. */
const Z_975 = 1.959963984540054;

/** Above this many values a sample is thinned to evenly spaced order statistics (m × n pairwise differences). */
const MAX_SHIFT_SAMPLE = 500;

/**
 * A distribution-free 95 % confidence interval for the shift a − b (e.g. cold − warm TTFT): the Hodges–Lehmann
 * estimate and Lehmann's interval from the ordered pairwise differences, its rank bound from the Mann–Whitney
 * statistic's normal approximation (Hollander & Wolfe, ch. 4). Robust to the heavy tails of latency samples,
 * where a ratio of two medians moves with noise (26.9 vs 26.8 ms read as "1.2× faster" then "0.9×"). Null with
 * fewer than 3 values on either side, where no interval at 95 % exists.
 */
export function shiftInterval(a: readonly number[], b: readonly number[]): ShiftInterval | null {
  const x = thin([...a].sort((p, q) => p - q));
  const y = thin([...b].sort((p, q) => p - q));
  const m = x.length;
  const n = y.length;
  if (m < 3 || n < 3) return null;
  const differences = new Float64Array(m * n);
  let k = 0;
  for (const u of x) for (const v of y) differences[k++] = u - v;
  differences.sort();
  const c = Math.floor((m * n) / 2 - Z_975 * Math.sqrt((m * n * (m + n + 1)) / 12));
  if (c < 0) return null;
  const sorted = Array.from(differences);
  return {
    estimate: percentile(sorted, 50),
    low: sorted[c]!,
    high: sorted[m * n - 1 - c]!,
    confidence: 0.95,
  };
}

function thin(sorted: number[]): number[] {
  if (sorted.length <= MAX_SHIFT_SAMPLE) return sorted;
  return Array.from(
    { length: MAX_SHIFT_SAMPLE },
    (_, i) => sorted[Math.round((i * (sorted.length - 1)) / (MAX_SHIFT_SAMPLE - 1))]!,
  );
}

/**
 * The prefix-cache card and CLI line: "2.1× faster", "no measurable speedup" when the interval holds 0 (never
 * "0.9× faster"), "slower when warm" when warm is reliably slower; the detail names the medians and the interval.
 */
export function speedupText(s: CacheSpeedup): { value: string; detail: string } {
  const medians = `cold ${formatMs(s.coldTtftP50Ms)} → warm ${formatMs(s.warmTtftP50Ms)} (TTFT p50, ${s.label})`;
  const shift = s.ttftShiftMs;
  const interval = shift
    ? `; cold − warm ${formatMs(shift.estimate)}, ${Math.round(shift.confidence * 100)}% CI ${signedMs(shift.low)} to ${signedMs(shift.high)}`
    : '';
  const verdict = s.verdict ?? (s.speedup > 1 ? 'faster' : s.speedup < 1 ? 'slower' : 'no measurable difference');
  if (verdict === 'faster') return { value: `${s.speedup.toFixed(1)}× faster`, detail: `${medians}${interval}` };
  if (verdict === 'slower') return { value: 'slower when warm', detail: `${medians}${interval}` };
  return { value: 'no measurable speedup', detail: `${medians}${interval}: within the run's own noise` };
}

function signedMs(ms: number): string {
  return ms < 0 ? `−${formatMs(-ms)}` : formatMs(ms);
}
