// Pure derivations from a benchmark result to what the results view draws (unit-tested in Node).
import { english as fill } from '../../core/l10n';
import type { BenchResult, LevelResult, MetricSummary, ModeResult } from '../../core/bench/result';
import { formatMs } from '../../core/format';
import { DEFAULT_SLO_MIN_SHARE, levelPasses, sloVerdict, type SloVerdict } from '../../core/bench/stats';

export interface LevelRow {
  mode: string;
  level: string;
  concurrency?: number;
  requests: number;
  failed: number;
  ttft: MetricSummary | null;
  tpot: MetricSummary | null;
  itlP50?: number;
  e2eP50?: number;
  outputTokensPerSecond: number;
  requestsPerSecond: number;
  goodput: number | null;
  sloShare: number | null;
  meetsSlo: boolean;
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
      meetsSlo: levelPasses(level.summary, DEFAULT_SLO_MIN_SHARE),
    })),
  );
}

/** The level the headline numbers come from: the cold mode's first level (the user's first request). */
export function headlineLevel(result: BenchResult): { mode: ModeResult; level: LevelResult } | undefined {
  const mode = result.modes.find((m) => m.cache === 'cold') ?? result.modes[0];
  const level = mode?.levels[0];
  return mode && level ? { mode, level } : undefined;
}

/** The run's verdict: every level must pass and the run be whole (the CLI's --slo rule, same wording). */
export function verdict(result: BenchResult): SloVerdict {
  return sloVerdict(result, DEFAULT_SLO_MIN_SHARE);
}

/** Empirical CDF of successful TTFTs per mode/level: points (ms, fraction ≤ ms). */
export function ttftCdf(level: LevelResult): { x: number[]; y: number[] } {
  const values = level.requests
    .filter((r) => r.ok && r.ttftMs !== undefined)
    .map((r) => r.ttftMs as number)
    .sort((a, b) => a - b);
  return { x: values, y: values.map((_, i) => (i + 1) / values.length) };
}

/**
 * Step curves on one shared, sorted x (uPlot wants aligned data): each curve's y at every x is its
 * share at or below it. One pass per curve (both are sorted), since a run can hold 100,000 samples.
 */
export function alignCdfs(curves: readonly { x: number[]; y: number[] }[]): { xs: number[]; ys: number[][] } {
  const xs = [...new Set(curves.flatMap((c) => c.x))].sort((a, b) => a - b);
  const ys = curves.map((c) => {
    let i = -1;
    return xs.map((x) => {
      while (i + 1 < c.x.length && (c.x[i + 1] as number) <= x) i++;
      return i < 0 ? 0 : (c.y[i] as number);
    });
  });
  return { xs, ys };
}

/** TTFT p50/p99 and output throughput against concurrency (the knee), for one mode. */
export function kneeSeries(mode: ModeResult): {
  concurrency: number[];
  ttftP50: (number | null)[];
  ttftP99: (number | null)[];
  tokensPerSecond: number[];
} {
  const levels = mode.levels
    .filter((l) => l.concurrency !== undefined)
    .sort((a, b) => (a.concurrency ?? 0) - (b.concurrency ?? 0));
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

/** formatMs (one millisecond format on every surface), with '–' for a missing value. */
export function ms(value: number | undefined | null): string {
  return value === undefined || value === null ? '–' : formatMs(value);
}

export function pct(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? '–' : `${value >= 0 ? '+' : ''}${value.toFixed(0)}%`;
}

/**
 * The prediction's error in words: `errorPct` is (predicted − measured) / measured, so −43 % reads "measured
 * slower than predicted (prediction 43% low)"; a bare signed number did not say which way.
 */
export function predictionErrorText(
  errorPct: number,
  words: { predictedSlower: string; predictedFaster: string; predictedExact: string },
): string {
  const size = `${Math.abs(errorPct).toFixed(0)}%`;
  if (size === '0%') return words.predictedExact;
  return fill(errorPct < 0 ? words.predictedSlower : words.predictedFaster, size);
}

/** The percentiles two runs are compared on, per metric. */
export const COMPARED = [
  { metric: 'ttftMs', name: 'TTFT', percentiles: ['p50', 'p90', 'p99'] },
  { metric: 'tpotMs', name: 'TPOT', percentiles: ['p50', 'p90', 'p99'] },
  { metric: 'e2eMs', name: 'E2E', percentiles: ['p50', 'p90', 'p99'] },
] as const;

export interface ComparedCell {
  /** e.g. "TTFT p90". */
  name: string;
  a?: number;
  b?: number;
  /** (b − a) / a in percent, when both are known. */
  deltaPct?: number;
}

export interface ComparedLevel {
  mode: string;
  level: string;
  cells: ComparedCell[];
}

/** How a run is named beside another: the tool that measured it, or this client. */
export function runName(result: BenchResult): string {
  return result.source ? `${result.source.tool} (${result.source.file})` : 'built-in client';
}

/**
 * Two runs side by side: the levels both measured (same cache mode and label), each compared
 * percentile with B's difference from A. A percentile one run's report lacks stays empty.
 */
export function compareRuns(a: BenchResult, b: BenchResult): ComparedLevel[] {
  const rows: ComparedLevel[] = [];
  for (const mode of a.modes)
    for (const level of mode.levels) {
      const other = b.modes.find((m) => m.cache === mode.cache)?.levels.find((l) => l.label === level.label);
      if (!other) continue;
      const cells = COMPARED.flatMap(({ metric, name, percentiles }) =>
        percentiles.map((p): ComparedCell => {
          const x = level.summary[metric]?.[p];
          const y = other.summary[metric]?.[p];
          return {
            name: `${name} ${p}`,
            ...(x !== undefined ? { a: x } : {}),
            ...(y !== undefined ? { b: y } : {}),
            ...(x !== undefined && y !== undefined && x > 0 ? { deltaPct: ((y - x) / x) * 100 } : {}),
          };
        }),
      );
      rows.push({ mode: mode.cache, level: level.label, cells });
    }
  return rows;
}
