import { z } from 'zod';

/** Zod schemas for the estimation tables; the same shapes serve data/*.json, settings and --table files. */

const dateString = z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'expected a date as YYYY, YYYY-MM or YYYY-MM-DD');
const cited = { source: z.string().min(1, 'must name a source'), date: dateString };
const id = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'ids are lower-case letters, digits, ".", "_" and "-"');
/** z.number() already rejects NaN; positive() rejects zero and negatives, finite() rejects Infinity. */
const positive = z.number().finite().positive();
const nonNegative = z.number().finite().nonnegative();
const fraction = z.number().finite().positive().max(1);

export const PRECISIONS = ['bf16', 'fp8', 'int8', 'int4', 'fp4'] as const;
export const precisionSchema = z.enum(PRECISIONS);
export type Precision = z.infer<typeof precisionSchema>;

export const modelRowSchema = z
  .object({
    id,
    name: z.string().optional(),
    ...cited,
    tokenizer: z.string().min(1),
    totalParamsB: positive,
    activeParamsB: positive,
    architecture: z.object({
      layers: positive.int(),
      hiddenSize: positive.int(),
      heads: positive.int(),
      kvHeads: positive.int(),
      headDim: positive.int(),
      mla: z
        .object({
          kvLoraRank: positive.int(),
          ropeHeadDim: positive.int(),
          qkHeadDim: positive.int(),
          vHeadDim: positive.int(),
        })
        .optional(),
      moe: z.object({ experts: positive.int(), activeExperts: positive.int() }).optional(),
    }),
    contextWindow: positive.int(),
    precisions: z.array(precisionSchema).min(1),
    note: z.string().optional(),
  })
  .refine((m) => m.activeParamsB <= m.totalParamsB, {
    message: 'activeParamsB must not exceed totalParamsB',
    path: ['activeParamsB'],
  });
export type ModelRow = z.infer<typeof modelRowSchema>;

const band = (value: z.ZodNumber) => z.object({ low: value, typical: value, high: value });
export type Band = { low: number; typical: number; high: number };

export const efficiencyClassSchema = z.object({
  id,
  name: z.string().optional(),
  ...cited,
  /** Fractions of peak dense FLOP/s reached by linear layers, attention, and of peak bandwidth by decode. */
  prefillCompute: band(fraction),
  attentionCompute: band(fraction),
  memoryBandwidth: band(fraction),
  /** Multiplier on compute efficiency when int4 weights are dequantised on the fly during prefill. */
  weightOnlyQuantPrefill: band(fraction),
  /** Fixed per-request time (scheduling, sampling, HTTP) in each efficiency scenario. */
  overheadMs: band(nonNegative),
  /** Per-all-reduce latency for tensor-parallel communication. */
  commLatencyUs: nonNegative,
  note: z.string().optional(),
});
export type EfficiencyClass = z.infer<typeof efficiencyClassSchema>;

export const hardwareRowSchema = z.object({
  id,
  name: z.string().optional(),
  ...cited,
  class: id,
  /** Dense (no sparsity) FLOP/s per GPU by precision; bf16 is required and is the fallback. */
  flops: z.object({ bf16: positive, fp8: positive.optional(), int8: positive.optional(), fp4: positive.optional() }),
  memoryBytes: positive,
  memoryBandwidth: positive,
  /** Per GPU, per direction, bytes/s, for tensor-parallel all-reduce. */
  interconnectBandwidth: positive,
  interconnectNote: z.string().optional(),
  usdPerHour: z.object({ value: nonNegative, ...cited }),
  note: z.string().optional(),
});
export type HardwareRow = z.infer<typeof hardwareRowSchema>;

const pricesShape = {
  inputPerM: nonNegative,
  cachedInputPerM: nonNegative.optional(),
  cacheWritePerM: nonNegative.optional(),
  cacheWrite1hPerM: nonNegative.optional(),
  outputPerM: nonNegative,
};

const hourMinute = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, 'expected a UTC time as HH:MM');

/** One priced period of the day in UTC, [from, to); "to" before "from" wraps past midnight. */
const utcWindow = z
  .object({ from: hourMinute, to: hourMinute })
  .refine((w) => w.from !== w.to, { message: 'a window must not be empty', path: ['to'] });

/** Which TTL a write asks for: the provider's default (5 min at Anthropic) or the extended one (1 h). */
export const CACHE_TTLS = ['5m', '1h'] as const;
export const cacheTtlSchema = z.enum(CACHE_TTLS);

export const providerRowSchema = z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._:-]*$/, 'provider ids are "provider/model"'),
  provider: id,
  model: z.string().min(1),
  name: z.string().optional(),
  /** The provider's own pricing page and the date it was checked against it. */
  ...cited,
  tokenizer: z.string().optional(),
  prices: z.object({
    ...pricesShape,
    /** Whole-request rates once the prompt exceeds the threshold (Anthropic, Gemini long context). */
    longContext: z.object({ aboveInputTokens: positive.int(), ...pricesShape }).optional(),
    /**
     * Time-of-day rates (DeepSeek's peak hours): inside these UTC windows these rates replace the
     * base ones, which are the off-peak rates.
     */
    peak: z
      .object({
        windowsUtc: z.array(utcWindow).min(1),
        /** Peak applies Monday to Friday only (UTC day); weekends are off-peak all day. */
        weekdaysOnly: z.boolean(),
        ...pricesShape,
        note: z.string().optional(),
      })
      .optional(),
  }),
  caching: z.object({
    /** automatic = implicit (any request may hit); explicit = the request marks what to cache and pays to write it. */
    mode: z.enum(['automatic', 'explicit', 'none']),
    minTokens: nonNegative.int(),
    granularity: positive.int(),
    /** The default TTL a write buys. */
    ttlSeconds: positive.optional(),
    /**
     * Cache-write price as a multiple of base input when cacheWritePerM is absent. Explicit caching
     * without it writes at 1×; automatic caching without it (and without cacheWritePerM) has no write fee.
     */
    writePremium: positive.optional(),
    /** The extended TTL ('1h' on the CLI) and its write multiple, where the provider offers one. */
    extendedTtl: z.object({ ttlSeconds: positive, writePremium: positive }).optional(),
    ...cited,
    note: z.string().optional(),
  }),
  contextWindow: positive.int(),
  latency: z.object({
    ttftBaseMs: nonNegative,
    msPerInputToken: nonNegative,
    outputTokensPerSecond: positive,
    ...cited,
    basis: z.enum(['measured', 'mixed', 'assumed']),
    /** Multipliers giving the fast and slow ends of the TTFT range around the profile (load, time of day, region). */
    spread: z.object({ low: positive.max(1), high: positive.min(1) }),
    note: z.string().optional(),
  }),
  /** A model the provider no longer serves: requests fail; targets naming it get an error and the successor. */
  retired: z
    .object({
      /** The day requests started failing; `source` says where that is stated. */
      ...cited,
      /** The provider row id to use instead, e.g. "anthropic/claude-sonnet-5.5". */
      successor: z.string().optional(),
      note: z.string().optional(),
    })
    .optional(),
  note: z.string().optional(),
});
export type ProviderRow = z.infer<typeof providerRowSchema>;

/** A table file, a settings block or a built-in file: every list optional. */
export const tableFileSchema = z.object({
  models: z.array(z.unknown()).optional(),
  hardware: z.array(z.unknown()).optional(),
  classes: z.array(z.unknown()).optional(),
  providers: z.array(z.unknown()).optional(),
});

/**
 * A measured latency profile (from calibration) that replaces the modelled latency of a target. The
 * base may be negative: it is the intercept of a line fitted through the calibrated lengths, and a
 * slightly convex TTFT curve crosses n = 0 below zero; predictions are held at ≥ 0.
 */
export const calibrationProfileSchema = z.object({
  ttftBaseMs: z.number().finite(),
  msPerInputToken: nonNegative,
  msPerInputToken2: nonNegative.optional(),
  tpotMs: positive,
  date: dateString,
});
export type CalibrationProfile = z.infer<typeof calibrationProfileSchema>;
