// What every importer shares: reading the file's JSON, naming a schema problem, and assembling
// levels into this project's BenchResult with the same derived figures as a built-in run.
import type { z } from 'zod';
import { describeIssues, type Loaded } from '../bench/endpoints';
import type {
  BenchResult,
  CacheMode,
  LevelResult,
  LevelSummary,
  ModeResult,
  RequestRecord,
  ResultSource,
  Slo,
} from '../bench/result';
import { cacheSpeedup } from '../bench/runner';
import { levelPredictionError, summarizeLevel } from '../bench/stats';

export type { Loaded } from '../bench/endpoints';

/** Parses JSON, naming the file and where it broke. */
export function parseJson(text: string, file: string): Loaded<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: `${file}: not valid JSON (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** JSON Lines: one JSON value per non-empty line; the first bad line is named. */
export function parseJsonLines(text: string, file: string): Loaded<unknown[]> {
  const values: unknown[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (!line) continue;
    try {
      values.push(JSON.parse(line));
    } catch (error) {
      return {
        ok: false,
        error: `${file}: line ${i + 1} is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  return values.length ? { ok: true, value: values } : { ok: false, error: `${file}: no JSON lines in the file` };
}

/** Validates against a zod schema, prefixing each problem with the file and what it should be. */
export function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
  what: string,
): Loaded<z.output<S>> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: `${file}: not ${what}: ${describeIssues(parsed.error).slice(0, 600)}` };
}

/** A level measured by another tool, before the derived figures are added. */
export interface ImportedLevel {
  cache: CacheMode;
  concurrency?: number;
  ratePerSecond?: number;
  durationMs: number;
  warmupErrors?: number;
  /** Per-request data where the report has it: the summary is then recomputed from it. */
  requests?: RequestRecord[];
  /** The tool's own summary, used when there are no per-request records. */
  summary?: LevelSummary;
}

export interface ImportInput {
  source: ResultSource;
  startedAt: string;
  endpoint: BenchResult['endpoint'];
  options: Omit<BenchResult['options'], 'concurrency' | 'ratePerSecond' | 'cache'>;
  slo: Slo;
  levels: ImportedLevel[];
  prediction?: BenchResult['prediction'];
  partial?: BenchResult['partialReason'];
}

/** Assembles an imported result: modes in cold-then-warm order, levels sorted, speedup and prediction error. */
export function importedResult(input: ImportInput): BenchResult {
  const modes: ModeResult[] = [];
  for (const cache of ['cold', 'warm'] as const) {
    const levels = input.levels
      .filter((l) => l.cache === cache)
      .sort((a, b) => (a.concurrency ?? a.ratePerSecond ?? 0) - (b.concurrency ?? b.ratePerSecond ?? 0))
      .map((l) => toLevel(l, input));
    if (levels.length) modes.push({ cache, levels });
  }
  const concurrency = [
    ...new Set(input.levels.flatMap((l) => (l.concurrency !== undefined ? [l.concurrency] : []))),
  ].sort((a, b) => a - b);
  const rates = input.levels.flatMap((l) => (l.ratePerSecond !== undefined ? [l.ratePerSecond] : []));
  const cacheModes = new Set(input.levels.map((l) => l.cache));
  const result: BenchResult = {
    schemaVersion: 1,
    startedAt: input.startedAt,
    endpoint: input.endpoint,
    options: {
      ...input.options,
      ...(concurrency.length ? { concurrency } : {}),
      ...(!concurrency.length && rates.length ? { ratePerSecond: rates[0]! } : {}),
      cache: cacheModes.size === 2 ? 'both' : (input.levels[0]?.cache ?? 'cold'),
    },
    slo: input.slo,
    partial: input.partial !== undefined,
    ...(input.partial ? { partialReason: input.partial } : {}),
    modes,
    source: input.source,
  };
  if (cacheModes.size === 2) result.cacheSpeedup = cacheSpeedup(modes);
  if (input.prediction) result.prediction = input.prediction;
  return result;
}

function toLevel(level: ImportedLevel, input: ImportInput): LevelResult {
  const records = level.requests ?? [];
  const summary =
    level.requests !== undefined || !level.summary
      ? summarizeLevel(records, level.durationMs, input.slo)
      : level.summary;
  const result: LevelResult = {
    label: level.concurrency !== undefined ? `c=${level.concurrency}` : `rate=${level.ratePerSecond ?? 0}/s`,
    ...(level.concurrency !== undefined ? { concurrency: level.concurrency } : {}),
    ...(level.ratePerSecond !== undefined ? { ratePerSecond: level.ratePerSecond } : {}),
    durationMs: level.durationMs,
    warmupErrors: level.warmupErrors ?? 0,
    requests: records,
    summary,
    summaryFrom: level.requests !== undefined ? 'requests' : 'aggregate',
  };
  const error = input.prediction ? levelPredictionError(input.prediction, summary) : undefined;
  if (error) result.predictionErrorPct = error;
  return result;
}

/** A summary from a tool's aggregate figures: counts and rates as given, nothing recomputed. */
export function aggregateSummary(
  fields: Partial<LevelSummary> & Pick<LevelSummary, 'requests' | 'succeeded'>,
): LevelSummary {
  return {
    failed: fields.requests - fields.succeeded,
    errorsByClass: {},
    errorExamples: {},
    ttfbMs: null,
    ttftMs: null,
    tpotMs: null,
    itlMs: null,
    e2eMs: null,
    outputTokensPerSecond: null,
    aggregateOutputTokensPerSecond: 0,
    requestsPerSecond: 0,
    goodput: null,
    sloShare: null,
    ...fields,
  };
}

/** The file's base name: a full path can carry a user name, and the view shows this. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}
