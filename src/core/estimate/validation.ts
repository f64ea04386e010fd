// The validation set: published single-request TTFT / prefill measurements, split by source into a
// half the engine rows are fitted on and a half they are only checked against (see fit.ts).
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { engineVersionSchema, precisionSchema, scopeSchema, strict } from './schemas';
import { resolveTarget, type SelfHostedTarget } from './targets';
import type { Tables } from './tables';
import { estimate } from './estimate';

const dateString = z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'expected YYYY, YYYY-MM or YYYY-MM-DD');

export const validationSourceSchema = strict({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
  title: z.string().min(1),
  url: z.string().url(),
  /** When the measurement was published (or the snapshot the numbers come from). */
  date: dateString,
  /**
   * The half this source was put in when it joined the set. Recorded so that a later source never moves it (the
   * rule below, re-run over all sources, would reshuffle old ones in hash order); absent: placed by the rule.
   */
  half: z.enum(['fit', 'check']).optional(),
  note: z.string().optional(),
});
export type ValidationSource = z.infer<typeof validationSourceSchema>;

/** One measured batch-1 point: client or engine TTFT, or prompt-processing throughput (llama-bench ppN). */
export const validationPointSchema = strict({
  id: z.string().min(1),
  source: z.string().min(1),
  engine: z.string().min(1),
  engineVersion: z.string().min(1),
  /**
   * The release as a target names it (`+llamacpp~2024-05`: a build date, a version or a range id), where the source
   * dates its build; absent: the engine's current range.
   */
  release: engineVersionSchema.optional(),
  /**
   * engine: an offline harness without a server (llama-bench, gptSessionBenchmark, profile_generation); http: a
   * client's TTFT.
   */
  scope: scopeSchema,
  model: z.string().min(1),
  hardware: z.string().min(1),
  gpus: z.number().int().positive(),
  tp: z.number().int().positive().optional(),
  pp: z.number().int().positive().optional(),
  precision: precisionSchema,
  metric: z.enum(['ttft_ms', 'prefill_tokens_per_s']),
  inputTokens: z.number().int().positive(),
  measured: z.number().finite().positive(),
  /** What exactly the number is, in the source's words where possible. */
  measures: z.string().min(1),
});
export type ValidationPoint = z.infer<typeof validationPointSchema>;

export const validationFileSchema = strict({
  $comment: z.string().optional(),
  goals: strict({
    heldOutMedianAbsPctEngineGiven: z.number().positive(),
    heldOutMedianAbsPctDefaultEngine: z.number().positive(),
    inRangeShare: z.number().positive().max(1),
  }),
  sources: z.array(validationSourceSchema).min(1),
  /** Model rows only the validation needs (older models the sources measured), in the models.json schema. */
  models: z.array(z.unknown()).default([]),
  points: z.array(validationPointSchema).min(1),
  excluded: z.array(strict({ what: z.string(), source: z.string().optional(), why: z.string() })).default([]),
});
export type ValidationFile = z.infer<typeof validationFileSchema>;

export type Half = 'fit' | 'check';

/**
 * Which half each source lands in, fixed before any fitting. A source with a recorded half keeps it; the others,
 * in the order of the SHA-256 of their id, each go to the half holding fewer sources of its engines so far, then
 * fewer sources in all (ties: fit). Half the sources land on each side, a source's points never sit on both, an
 * engine with two or more sources has some in each half, and adding a source never moves an old one.
 */
export function splitSources(
  points: readonly ValidationPoint[],
  recorded: ReadonlyMap<string, Half> = new Map(),
): Map<string, Half> {
  const engines = new Map<string, Set<string>>();
  for (const p of points) engines.set(p.source, (engines.get(p.source) ?? new Set()).add(p.engine));
  const split = new Map<string, Half>([...recorded].filter(([source]) => engines.has(source)));
  const order = [...engines.keys()]
    .filter((source) => !split.has(source))
    .sort((a, b) => sha256(a).localeCompare(sha256(b)));
  const sourcesOf = (half: Half, engine?: string) =>
    [...split].filter(([s, h]) => h === half && (engine === undefined || engines.get(s)?.has(engine))).length;
  for (const source of order) {
    const mine = [...(engines.get(source) as Set<string>)];
    const byEngine = (half: Half) => mine.reduce((n, e) => n + sourcesOf(half, e), 0);
    const fewer =
      byEngine('check') !== byEngine('fit')
        ? byEngine('check') < byEngine('fit')
        : sourcesOf('check') < sourcesOf('fit');
    split.set(source, fewer ? 'check' : 'fit');
  }
  return split;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The point's deployment as the estimator resolves it, with the point's engine (null: the default) and scope. */
export function pointTarget(point: ValidationPoint, tables: Tables, engine: string | null = point.engine) {
  const target = resolveTarget(
    {
      kind: 'self-hosted',
      model: point.model,
      hardware: point.hardware,
      gpus: point.gpus,
      precision: point.precision,
      ...(engine !== null ? { engine } : {}),
      // The release belongs to the point's engine; the default engine is predicted at its current release.
      ...(engine !== null && engine === point.engine && point.release ? { engineVersion: point.release } : {}),
      ...(point.tp !== undefined ? { tp: point.tp } : {}),
      ...(point.pp !== undefined ? { pp: point.pp } : {}),
    },
    tables,
    { scope: point.scope },
  );
  return target as SelfHostedTarget;
}

/** Measured time in ms: throughput points become the time to process the prompt. */
export function measuredMs(point: ValidationPoint): number {
  return point.metric === 'prefill_tokens_per_s' ? (point.inputTokens / point.measured) * 1000 : point.measured;
}

export interface ValidationRow {
  point: ValidationPoint;
  half: Half;
  target: string;
  measuredMs: number;
  predictedMs: number;
  low: number;
  high: number;
  /** (predicted − measured) / measured × 100 */
  errorPct: number;
  inRange: boolean;
}

/**
 * The estimate for the point at concurrency 1 with one output token. `engine` null predicts what a user
 * who names no engine gets (the default, or the vendor's fallback).
 */
export function predictPoint(
  point: ValidationPoint,
  tables: Tables,
  half: Half,
  engine: string | null = point.engine,
): ValidationRow {
  const target = pointTarget(point, tables, engine);
  const e = estimate(target, { inputTokens: point.inputTokens, outputTokens: 1 });
  const measured = measuredMs(point);
  const predicted = e.ttftMs.p50;
  return {
    point,
    half,
    target: target.id,
    measuredMs: measured,
    predictedMs: predicted,
    low: e.ttftMs.low,
    high: e.ttftMs.high,
    errorPct: ((predicted - measured) / measured) * 100,
    inRange: e.ttftMs.low <= measured && measured <= e.ttftMs.high,
  };
}

export function medianAbsPctError(rows: readonly Pick<ValidationRow, 'errorPct'>[]): number {
  return median(rows.map((r) => Math.abs(r.errorPct)));
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Linear-interpolated quantile (type 7, as numpy's default) of unsorted values. */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

export function inRangeShare(rows: readonly Pick<ValidationRow, 'inRange'>[]): number {
  return rows.length === 0 ? Number.NaN : rows.filter((r) => r.inRange).length / rows.length;
}
