import { z } from 'zod';
import { closestIds } from './closest';

/**
 * Zod schemas for the estimation tables; the same shapes serve data/*.json, settings and --table files.
 * Every object is strict: a misspelt key (`flops.FP8`) is an error naming the closest valid key, never a
 * silently ignored field that makes the estimate fall back to a slower path.
 */

const dateString = z.string().regex(/^\d{4}(-\d{2}(-\d{2})?)?$/, 'expected a date as YYYY, YYYY-MM or YYYY-MM-DD');
const cited = { source: z.string().min(1, 'must name a source'), date: dateString };
const id = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'ids are lower-case letters, digits, ".", "_" and "-"');
/** z.number() already rejects NaN; positive() rejects zero and negatives, finite() rejects Infinity. */
const positive = z.number().finite().positive();
const nonNegative = z.number().finite().nonnegative();
const fraction = z.number().finite().positive().max(1);

/** "unknown key 'FP8'; did you mean 'fp8'?" for each key the shape does not have. */
export function unknownKeyMessage(keys: readonly string[], known: readonly string[]): string {
  return keys
    .map((key) => {
      const [nearest] = closestIds(key, known, 1);
      return `unknown key '${key}'${nearest ? `; did you mean '${nearest}'?` : ''}`;
    })
    .join('; ');
}

/** z.strictObject whose unknown-key error names the key and the closest valid one. */
export function strict<T extends z.ZodRawShape>(shape: T) {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? unknownKeyMessage((issue as { keys: string[] }).keys, known) : undefined,
  });
}

export const PRECISIONS = ['bf16', 'fp16', 'fp8', 'int8', 'int4', 'fp4'] as const;
export const precisionSchema = z.enum(PRECISIONS);
export type Precision = z.infer<typeof precisionSchema>;

export const modelRowSchema = strict({
  id,
  name: z.string().optional(),
  ...cited,
  tokenizer: z.string().min(1),
  totalParamsB: positive,
  /** Parameters used per token; defaults to totalParamsB (dense). Required for a mixture of experts. */
  activeParamsB: positive.optional(),
  architecture: strict({
    layers: positive.int(),
    hiddenSize: positive.int(),
    heads: positive.int(),
    kvHeads: positive.int(),
    headDim: positive.int(),
    mla: strict({
      kvLoraRank: positive.int(),
      ropeHeadDim: positive.int(),
      qkHeadDim: positive.int(),
      vHeadDim: positive.int(),
    }).optional(),
    moe: strict({ experts: positive.int(), activeExperts: positive.int() }).optional(),
  }),
  contextWindow: positive.int(),
  /** Offered precisions, native first; fp16 is accepted wherever bf16 is (same storage, another rate). */
  precisions: z.array(precisionSchema).min(1),
  note: z.string().optional(),
})
  .refine((m) => m.activeParamsB !== undefined || !m.architecture.moe, {
    message: 'a mixture of experts (architecture.moe) must give activeParamsB',
    path: ['activeParamsB'],
  })
  .refine((m) => m.activeParamsB === undefined || m.activeParamsB <= m.totalParamsB, {
    message: 'activeParamsB must not exceed totalParamsB',
    path: ['activeParamsB'],
  })
  .transform((m) => ({ ...m, activeParamsB: m.activeParamsB ?? m.totalParamsB }));
export type ModelRow = z.output<typeof modelRowSchema>;

export const VENDORS = ['nvidia', 'amd', 'apple', 'intel', 'cpu'] as const;
export const vendorSchema = z.enum(VENDORS);
export type Vendor = z.infer<typeof vendorSchema>;

const flopsSchema = strict({
  /** 16-bit tensor rate with FP32 accumulate (what cuBLAS/PyTorch use for bf16 and fp16 by default). */
  bf16: positive,
  /** FP16 with FP16 accumulate, where the datasheet gives a distinct (GeForce, RTX workstation: 2×) rate. */
  fp16: positive.optional(),
  fp8: positive.optional(),
  int8: positive.optional(),
  fp4: positive.optional(),
});

export const hardwareRowSchema = strict({
  id,
  name: z.string().optional(),
  ...cited,
  vendor: vendorSchema,
  /** Architecture family (`nvidia-hopper`, `apple-m2`…): engine efficiencies may differ per family. */
  family: id,
  /** Dense (no sparsity) FLOP/s per device by precision; bf16 is the 16-bit fallback. */
  flops: flopsSchema.optional(),
  /** A CPU sized by cores × GFLOP/s per core (16-bit) instead of `flops`. */
  cpu: strict({ cores: positive.int(), gflopsPerCore: positive }).optional(),
  memoryBytes: positive,
  memoryBandwidth: positive,
  /** Devices in one node (tensor parallelism stays within it by default). */
  gpusPerNode: positive.int().max(1024).default(8),
  /** Within a node: per device, per direction, bytes/s (NVLink, PCIe). Needed only for more than one device. */
  interconnectBandwidth: positive.optional(),
  /** Across nodes: per device, per direction, bytes/s (InfiniBand, RoCE). */
  nodeInterconnectBandwidth: positive.optional(),
  interconnectNote: z.string().optional(),
  /** Rental price; optional for a row used only for latency (such a row has no cost and is not ranked by $). */
  usdPerHour: strict({ value: nonNegative, ...cited }).optional(),
  note: z.string().optional(),
})
  .refine((h) => h.flops !== undefined || h.cpu !== undefined, {
    message: 'give flops (FLOP/s per device) or cpu {cores, gflopsPerCore}',
    path: ['flops'],
  })
  .transform(({ flops, cpu, ...rest }) => ({
    ...rest,
    ...(cpu ? { cpu } : {}),
    flops: flops ?? { bf16: (cpu?.cores ?? 0) * (cpu?.gflopsPerCore ?? 0) * 1e9 },
  }));
export type HardwareRow = z.output<typeof hardwareRowSchema>;

export const SCOPES = ['engine', 'http'] as const;
export const scopeSchema = z.enum(SCOPES);
/** What a measurement includes: `engine` (offline harness, no server) or `http` (what a streaming client sees). */
export type Scope = z.infer<typeof scopeSchema>;

export const ENGINE_CLASSES = ['tuned', 'server', 'local'] as const;
export const engineClassSchema = z.enum(ENGINE_CLASSES);
export type EngineClass = z.infer<typeof engineClassSchema>;

export const efficiencySchema = strict({
  /** Fraction of peak dense FLOP/s the linear layers reach in prefill. */
  prefill: fraction,
  /** Fraction of peak 16-bit FLOP/s the attention kernels reach in prefill. */
  attention: fraction,
  /** Fraction of peak memory bandwidth a decode step reaches. */
  decode: fraction,
  /** Multiplier on the prefill rate when int4/fp4 weights are dequantised to 16 bits on the fly. */
  weightOnlyQuant: fraction,
  /** Where the values come from ("fitted on 12 point(s) from 2 source(s)", "prior …"). */
  basis: z.string().optional(),
});
export type Efficiency = z.infer<typeof efficiencySchema>;

/** An engine release as a target (`+llamacpp~2024-05`), `--engine-version` or the setting gives it. */
export const engineVersionSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'is not an engine version: give a build date (YYYY-MM-DD), a version or a range id');

/**
 * An engine release range before the one the row's efficiencies stand for, where a public, dated source measured
 * the same hardware and model before and after the change: the prefill rate of the listed precisions is the
 * current one times `prefillFactor` (by vendor or family, the family winning). Never fitted.
 */
export const olderVersionSchema = strict({
  /** Named in a target (`+llamacpp~cublas-prefill`) as well as by a date or version inside the range. */
  id,
  /** "builds before 2024-06-24 (PR #8075): quantised prefill dequantises to FP16 for cuBLAS". */
  label: z.string().min(1),
  /** The first day of the next range (the change's merge date): a build dated earlier falls in this range. */
  before: dateString,
  /** The first release of the next range, where releases are numbered (`0.7.0`); versions below it fall here. */
  beforeVersion: z
    .string()
    .regex(/^\d+(\.\d+)*$/, 'expected a version as numbers separated by dots')
    .optional(),
  precisions: z.array(precisionSchema).min(1),
  prefillFactor: z.record(id, positive),
  /** The before/after measurement the factor is read from, with its source and date. */
  evidence: z.string().min(1),
  ...cited,
});
export type OlderVersion = z.infer<typeof olderVersionSchema>;

export const engineRowSchema = strict({
  id,
  name: z.string().min(1),
  ...cited,
  /** Versions the row stands for (efficiency changes between releases: vLLM 0.6 on ROCm was several times slower). */
  versions: z.string().min(1),
  class: engineClassSchema,
  /** Per request: `engine` in the engine itself (scheduling, sampling), `server` added by its HTTP server. */
  overheadMs: strict({ engine: nonNegative, server: nonNegative, basis: z.string().optional() }),
  /** Fixed cost of one tensor-parallel all-reduce or pipeline hand-off within a node, µs. */
  collectiveUs: nonNegative,
  /** Efficiency by vendor (`nvidia`) or family (`nvidia-hopper`, which wins); a vendor absent here is unsupported. */
  efficiency: z.record(id, efficiencySchema).optional(),
  /** Runs another engine's kernels (Ollama runs llama.cpp): its efficiency, this row's overhead. */
  efficiencyFrom: id.optional(),
  /**
   * Prompt chunks one request's prefill is cut into, each passing the pipeline stages behind the last (llama.cpp's
   * n_ubatch).
   */
  pipelineChunkTokens: positive.int().optional(),
  /**
   * GEMMs accumulate in FP16 for 16-bit and dequantised weights (llama.cpp's cuBLAS path), so the fp16 rate applies.
   */
  fp16Accumulate: z.boolean().default(false),
  /** How it splits a model over devices: tensor parallel (TP in a node, PP across) or layers only (llama.cpp). */
  split: z.enum(['tensor', 'layer']).default('tensor'),
  /** Used for these vendors when the chosen default engine does not run on them. */
  defaultFor: z.array(vendorSchema).default([]),
  /** Earlier release ranges with a measured prefill factor; `versions` is the current range (the default). */
  olderVersions: z.array(olderVersionSchema).default([]),
  note: z.string().optional(),
}).refine((e) => (e.efficiency === undefined) !== (e.efficiencyFrom === undefined), {
  message: 'give either efficiency or efficiencyFrom',
  path: ['efficiency'],
});
export type EngineRow = z.output<typeof engineRowSchema>;

/** The TTFT range of an engine class: measured/predicted ratios that bracket the measurements. */
export const bandRowSchema = strict({
  id: engineClassSchema,
  low: positive.max(1),
  high: positive.min(1),
  /** How the band was derived, printed with every estimate that uses it. */
  derivation: z.string().min(1),
  ...cited,
});
export type BandRow = z.infer<typeof bandRowSchema>;

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
  .strictObject({ from: hourMinute, to: hourMinute })
  .refine((w) => w.from !== w.to, { message: 'a window must not be empty', path: ['to'] });

/** Which TTL a write asks for: the provider's default (5 min at Anthropic) or the extended one (1 h). */
export const CACHE_TTLS = ['5m', '1h'] as const;
export const cacheTtlSchema = z.enum(CACHE_TTLS);

export const providerRowSchema = strict({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]*\/[a-z0-9][a-z0-9._:-]*$/, 'provider ids are "provider/model"'),
  provider: id,
  model: z.string().min(1),
  name: z.string().optional(),
  /** The provider's own pricing page and the date it was checked against it. */
  ...cited,
  tokenizer: z.string().optional(),
  prices: strict({
    ...pricesShape,
    /** Whole-request rates once the prompt exceeds the threshold (Anthropic, Gemini long context). */
    longContext: strict({ aboveInputTokens: positive.int(), ...pricesShape }).optional(),
    /**
     * Time-of-day rates (DeepSeek's peak hours): inside these UTC windows these rates replace the
     * base ones, which are the off-peak rates.
     */
    peak: strict({
      windowsUtc: z.array(utcWindow).min(1),
      /** Peak applies Monday to Friday only (UTC day); weekends are off-peak all day. */
      weekdaysOnly: z.boolean(),
      ...pricesShape,
      note: z.string().optional(),
    }).optional(),
  }),
  caching: strict({
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
    extendedTtl: strict({ ttlSeconds: positive, writePremium: positive }).optional(),
    ...cited,
    note: z.string().optional(),
  }),
  contextWindow: positive.int(),
  latency: strict({
    ttftBaseMs: nonNegative,
    msPerInputToken: nonNegative,
    outputTokensPerSecond: positive,
    ...cited,
    basis: z.enum(['measured', 'mixed', 'assumed']),
    /** Multipliers giving the fast and slow ends of the TTFT range around the profile (load, time of day, region). */
    spread: strict({ low: positive.max(1), high: positive.min(1) }),
    note: z.string().optional(),
  }),
  /** A model the provider no longer serves: requests fail; targets naming it get an error and the successor. */
  retired: strict({
    /** The day requests started failing; `source` says where that is stated. */
    ...cited,
    /** The provider row id to use instead, e.g. "anthropic/claude-sonnet-5.5". */
    successor: z.string().optional(),
    note: z.string().optional(),
  }).optional(),
  note: z.string().optional(),
});
export type ProviderRow = z.infer<typeof providerRowSchema>;

/** A table file, a settings block or a built-in file: every list optional, nothing else allowed. */
export const tableFileSchema = strict({
  $comment: z.string().optional(),
  /** The file's JSON schema (schemas/tables.schema.json), for editors. */
  $schema: z.string().optional(),
  models: z.array(z.unknown()).optional(),
  hardware: z.array(z.unknown()).optional(),
  engines: z.array(z.unknown()).optional(),
  bands: z.array(z.unknown()).optional(),
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
