// A saved result read back from a file (Import Results…, Compare with…): validated before the
// results view draws it, since the file could have been edited or come from elsewhere.
import { z } from 'zod';
import { ENDPOINT_KINDS } from './endpoints';
import { ERROR_CLASSES, RESULT_TOOLS, type BenchResult } from './result';

const num = z.number().finite();
const metric = z
  .object({
    count: num.optional(),
    mean: num,
    stdev: num.optional(),
    min: num.optional(),
    max: num.optional(),
    p50: num,
    p90: num.optional(),
    p95: num.optional(),
    p99: num.optional(),
  })
  .nullable();
const errorClass = z.enum(ERROR_CLASSES);
const record = z.object({
  startMs: num,
  ok: z.boolean(),
  ttfbMs: num.optional(),
  ttftMs: num.optional(),
  e2eMs: num.optional(),
  itlMs: z.array(num),
  tpotMs: num.optional(),
  outputTokens: num.optional(),
  outputTokensSource: z.enum(['usage', 'counted']).optional(),
  inputTokens: num.optional(),
  finishReason: z.string().optional(),
  error: z
    .object({ class: errorClass, message: z.string(), status: num.optional(), retryAfterMs: num.optional() })
    .optional(),
});
const summary = z.object({
  requests: num,
  succeeded: num,
  failed: num,
  errorsByClass: z.partialRecord(errorClass, num),
  errorExamples: z.partialRecord(errorClass, z.string()),
  ttfbMs: metric,
  ttftMs: metric,
  tpotMs: metric,
  itlMs: metric,
  e2eMs: metric,
  outputTokensPerSecond: metric,
  aggregateOutputTokensPerSecond: num,
  requestsPerSecond: num,
  goodput: num.nullable(),
  sloShare: num.nullable(),
});
const level = z.object({
  label: z.string(),
  concurrency: num.optional(),
  ratePerSecond: num.optional(),
  durationMs: num,
  warmupErrors: num,
  requests: z.array(record),
  summary,
  predictionErrorPct: z.object({ ttft: num.optional(), tpot: num.optional() }).optional(),
  summaryFrom: z.enum(['requests', 'aggregate']).optional(),
});

/** The result schema (docs/benchmark.md); unknown extra fields (e.g. the CLI's verdict) are kept. */
export const benchResultSchema = z
  .object({
    schemaVersion: z.literal(1),
    startedAt: z.string(),
    endpoint: z.object({
      name: z.string(),
      kind: z.enum(ENDPOINT_KINDS),
      baseUrl: z.string(),
      model: z.string(),
      target: z.string().optional(),
    }),
    options: z
      .object({
        requests: num,
        warmup: num,
        concurrency: z.array(num).optional(),
        ratePerSecond: num.optional(),
        cache: z.enum(['cold', 'warm', 'both']),
        maxTokens: num,
        timeoutMs: num,
        maxDurationMs: num.optional(),
      })
      .loose(),
    slo: z.object({ ttftMs: num, tpotMs: num }),
    partial: z.boolean(),
    partialReason: z.enum(['cancelled', 'time-limit']).optional(),
    modes: z.array(z.object({ cache: z.enum(['cold', 'warm']), levels: z.array(level) })),
    cacheSpeedup: z
      .array(
        z.object({
          label: z.string(),
          coldTtftP50Ms: num,
          warmTtftP50Ms: num,
          speedup: num,
          ttftShiftMs: z.object({ estimate: num, low: num, high: num, confidence: num }).optional(),
          verdict: z.enum(['faster', 'slower', 'no measurable difference']).optional(),
        }),
      )
      .optional(),
    prediction: z.object({ ttftMs: num.optional(), tpotMs: num.optional() }).optional(),
    usage: z
      .object({
        requests: z.number().int().nonnegative(),
        matched: z.number().int().nonnegative(),
        billed: num,
        local: num,
        minDiff: z.number(),
        maxDiff: z.number(),
        tokenizer: z.string(),
        exact: z.boolean(),
        template: z.string().optional(),
        hint: z.string().optional(),
        samples: z
          .array(
            z.object({
              local: z.number().int().nonnegative(),
              billed: z.number().int().nonnegative(),
              requests: z.number().int().positive(),
            }),
          )
          .optional(),
      })
      .optional(),
    source: z
      .object({
        tool: z.enum(RESULT_TOOLS),
        file: z.string(),
        version: z.string().optional(),
        percentiles: z.string(),
        notes: z.array(z.string()),
      })
      .optional(),
  })
  .loose();

/** A result this project wrote (`bench --json`, Export JSON, a history entry's `result`), validated. */
export function parseBenchResult(value: unknown): { ok: true; value: BenchResult } | { ok: false; issues: z.ZodError } {
  const parsed = benchResultSchema.safeParse(value);
  return parsed.success ? { ok: true, value: parsed.data as BenchResult } : { ok: false, issues: parsed.error };
}
