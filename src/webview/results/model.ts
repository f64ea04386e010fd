// Pure derivations from a benchmark result to what the results view draws (unit-tested in Node).
import type { BenchResult, Distribution, LevelResult, ModeResult } from '../../core/bench/result';
import { meetsSlo } from '../../core/bench/stats';

export interface LevelRow {
  mode: string;
  level: string;
  concurrency?: number;
  requests: number;
  failed: number;
  ttft: Distribution | null;
  tpot: Distribution | null;
  itlP50?: number;
  e2eP50?: number;
  outputTokensPerSecond: number;
  requestsPerSecond: number;
  goodput: number;
  sloShare: number;
  meetsSlo: boolean;
}

/** A level meets the SLO when its p95 TTFT and p95 TPOT are within it (and it has successes). */
export function levelMeetsSlo(level: LevelResult, result: BenchResult): boolean {
  const { ttftMs, tpotMs } = level.summary;
  if (!ttftMs) return false;
  return ttftMs.p95 <= result.slo.ttftMs && (tpotMs === null || tpotMs.p95 <= result.slo.tpotMs);
}

export function levelRows(result: BenchResult): LevelRow[] {
  return result.modes.flatMap((mode) =>
    mode.levels.map((level) => ({
      mode: mode.cache,
      level: level.label,
      concurrency: level.concurrency,
      requests: level.summary.requests,
      failed: level.summary.failed,
      ttft: level.summary.ttftMs,
      tpot: level.summary.tpotMs,
      itlP50: level.summary.itlMs?.p50,
      e2eP50: level.summary.e2eMs?.p50,
      outputTokensPerSecond: level.summary.aggregateOutputTokensPerSecond,
      requestsPerSecond: level.summary.requestsPerSecond,
      goodput: level.summary.goodput,
      sloShare: level.summary.sloShare,
      meetsSlo: levelMeetsSlo(level, result),
    })),
  );
}

/** The level the headline numbers come from: the cold mode's first level (the user's first request). */
export function headlineLevel(result: BenchResult): { mode: ModeResult; level: LevelResult } | undefined {
  const mode = result.modes.find((m) => m.cache === 'cold') ?? result.modes[0];
  const level = mode?.levels[0];
  return mode && level ? { mode, level } : undefined;
}

export interface Verdict {
  pass: boolean;
  /** e.g. "TTFT p95 812 ms > 500 ms at cold c=16" */
  failures: string[];
}

export function verdict(result: BenchResult): Verdict {
  const failures: string[] = [];
  for (const mode of result.modes) {
    for (const level of mode.levels) {
      const { ttftMs, tpotMs, succeeded } = level.summary;
      const where = `${mode.cache} ${level.label}`;
      if (succeeded === 0 || !ttftMs) failures.push(`no successful request at ${where}`);
      else {
        if (ttftMs.p95 > result.slo.ttftMs) failures.push(`TTFT p95 ${ms(ttftMs.p95)} > ${ms(result.slo.ttftMs)} at ${where}`);
        if (tpotMs && tpotMs.p95 > result.slo.tpotMs) failures.push(`TPOT p95 ${ms(tpotMs.p95)} > ${ms(result.slo.tpotMs)} at ${where}`);
      }
    }
  }
  return { pass: failures.length === 0 && result.modes.some((m) => m.levels.length > 0), failures };
}

/** Empirical CDF of successful TTFTs per mode/level: points (ms, fraction ≤ ms). */
export function ttftCdf(level: LevelResult): { x: number[]; y: number[] } {
  const values = level.requests.filter((r) => r.ok && r.ttftMs !== undefined).map((r) => r.ttftMs as number).sort((a, b) => a - b);
  return { x: values, y: values.map((_, i) => (i + 1) / values.length) };
}

/** TTFT p50/p99 and output throughput against concurrency (the knee), for one mode. */
export function kneeSeries(mode: ModeResult): { concurrency: number[]; ttftP50: (number | null)[]; ttftP99: (number | null)[]; tokensPerSecond: number[] } {
  const levels = mode.levels.filter((l) => l.concurrency !== undefined).sort((a, b) => (a.concurrency ?? 0) - (b.concurrency ?? 0));
  return {
    concurrency: levels.map((l) => l.concurrency as number),
    ttftP50: levels.map((l) => l.summary.ttftMs?.p50 ?? null),
    ttftP99: levels.map((l) => l.summary.ttftMs?.p99 ?? null),
    tokensPerSecond: levels.map((l) => l.summary.aggregateOutputTokensPerSecond),
  };
}

/** Mean inter-token latency at each output position (1 = gap between tokens 1 and 2). */
export function itlByPosition(level: LevelResult): { position: number[]; meanMs: number[] } {
  const sums: number[] = [];
  const counts: number[] = [];
  for (const r of level.requests) {
    if (!r.ok) continue;
    r.itlMs.forEach((gap, i) => {
      sums[i] = (sums[i] ?? 0) + gap;
      counts[i] = (counts[i] ?? 0) + 1;
    });
  }
  return { position: sums.map((_, i) => i + 1), meanMs: sums.map((s, i) => s / (counts[i] ?? 1)) };
}

/** Share of successful requests meeting both SLOs across the whole run. */
export function overallSloShare(result: BenchResult): number {
  const records = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests));
  return records.length === 0 ? 0 : records.filter((r) => meetsSlo(r, result.slo)).length / records.length;
}

export function ms(value: number | undefined | null): string {
  if (value === undefined || value === null || !Number.isFinite(value)) return '–';
  return value >= 1000 ? `${(value / 1000).toFixed(2)} s` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ms`;
}

export function pct(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '–' : `${value >= 0 ? '+' : ''}${value.toFixed(0)}%`;
}
