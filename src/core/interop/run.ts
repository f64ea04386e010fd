// An exported run: everything the built-in client would send and how (endpoint without key,
// messages, levels, cache mode, SLO, prediction), in one JSON object. The Artillery processor
// embeds it, the peer tools' datasets are made from it, and the importers read it back.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { endpointConfigSchema } from '../bench/endpoints';
import type { CacheMode } from '../bench/result';
import { parseJson, validate, type Loaded } from './imported';

export const RUN_SCHEMA = 'prompt-lens-run/1';
/** The file written beside every export that describes the run (the imports read it back). */
export const RUN_FILE = 'prompt-lens-run.json';

const positive = z.number().positive();
const count = z.number().int().min(1);

export const exportedRunSchema = z
  .object({
    schema: z.literal(RUN_SCHEMA),
    /** A hash of everything below but createdAt: the processor emits it so an import can check the pairing. */
    id: z.string().regex(/^[0-9a-f]{12}$/, 'must be 12 hex digits'),
    createdAt: z.string(),
    prompt: z.string(),
    endpoint: endpointConfigSchema,
    messages: z
      .array(z.object({ role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']), content: z.string() }))
      .min(1),
    maxTokens: count,
    requests: count,
    warmup: z.number().int().min(0),
    cache: z.enum(['cold', 'warm', 'both']),
    concurrency: z.array(count).min(1).optional(),
    ratePerSecond: positive.optional(),
    timeoutMs: count,
    maxDurationMs: positive.optional(),
    slo: z.object({ ttftMs: positive, tpotMs: positive }),
    prediction: z.object({ ttftMs: positive.optional(), tpotMs: positive.optional() }).optional(),
    /** The environment variable the processor reads the API key from (never the key itself). */
    apiKeyEnv: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name'),
  })
  .refine((r) => (r.concurrency === undefined) !== (r.ratePerSecond === undefined), {
    error: 'needs exactly one of concurrency and ratePerSecond',
  });
export type ExportedRun = z.output<typeof exportedRunSchema>;

/** One level of the run as the scenario lists it and the metrics name it. */
export interface RunLevel {
  cache: CacheMode;
  concurrency?: number;
  ratePerSecond?: number;
  /** The built-in client's label: `c=4`, `rate=2/s`. */
  label: string;
  /** The level in file and metric names and the scenario's `over` list: `cold.c4`, `warm.r2_5`. */
  key: string;
}

/** The levels in the order the built-in client runs them: every level cold, then every level warm. */
export function runLevels(run: Pick<ExportedRun, 'cache' | 'concurrency' | 'ratePerSecond'>): RunLevel[] {
  const modes: CacheMode[] = run.cache === 'both' ? ['cold', 'warm'] : [run.cache];
  return modes.flatMap((cache): RunLevel[] =>
    run.ratePerSecond !== undefined
      ? [
          {
            cache,
            ratePerSecond: run.ratePerSecond,
            label: `rate=${run.ratePerSecond}/s`,
            key: `${cache}.r${String(run.ratePerSecond).replace('.', '_')}`,
          },
        ]
      : (run.concurrency ?? []).map((c) => ({ cache, concurrency: c, label: `c=${c}`, key: `${cache}.c${c}` })),
  );
}

/** A run description with its id filled in (a hash of its content, without the creation time). */
export function withRunId(run: Omit<ExportedRun, 'id' | 'schema'>): ExportedRun {
  const body = { ...run, createdAt: undefined };
  const id = createHash('sha256').update(JSON.stringify(body)).digest('hex').slice(0, 12);
  return { schema: RUN_SCHEMA, id, ...run };
}

/** Reads the run description an export wrote beside its files. */
export function parseRunFile(text: string, file: string): Loaded<ExportedRun> {
  const json = parseJson(text, file);
  return json.ok ? validate(exportedRunSchema, json.value, file, `a prompt-lens run description (${RUN_FILE})`) : json;
}
