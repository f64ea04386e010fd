import { z } from 'zod';
import { endpointConfigSchema } from '../bench/endpoints';
import { sloSchema } from '../compare/profiles';
import { cacheTtlSchema, DEFAULT_ENGINE, DEFAULT_SCOPE, engineVersionSchema, scopeSchema } from '../estimate';
import { DEFAULT_TARGET_IDS } from '../estimate/targets';
import { findingSettingsSchema } from '../findings/settings';
import { DEFAULT_INCLUDE_GLOBS, SWITCHABLE_FORMATS } from '../prompt/formats';
import { includeGlobSchema } from '../promptFiles';
import { regexSource } from './fields';
import { keepValid, type SettingProblem } from './keepValid';

/**
 * Every `promptLens.*` setting, one zod schema: a top-level object is a group of dotted keys (`benchmark.requests`),
 * anything else is one key. package.json's `contributes.configuration` must say the same (types, defaults,
 * limits, enums, item schemas): test/unit/core/settings.test.ts compares them. To add a setting, add it here and
 * to package.json, and read it from `Settings` (the extension's settings module hands it out).
 */
const positiveInt = z.number().int().positive();
const enabled = z.object({ enabled: z.boolean().default(true) }).prefault({});
/** Rows validated by the table schemas where the tables are loaded (one place with data/*.json and --table). */
const tableRows = z.array(z.record(z.string(), z.unknown())).default([]);

export const settingsSchema = z.object({
  include: z.array(includeGlobSchema).default([...DEFAULT_INCLUDE_GLOBS]),
  /** Built-in prompt file formats switched off: their globs find nothing, their files read as plain text. */
  formats: z.object({ disabled: z.array(z.enum(SWITCHABLE_FORMATS)).default([]) }).prefault({}),
  /** Target ids, primary first (validated against the tables where they are used). */
  targets: z
    .array(z.string().min(1))
    .min(1)
    .default([...DEFAULT_TARGET_IDS]),
  variablePatterns: z.array(z.string().min(1).pipe(regexSource)).default([]),
  /** Serving engine of self-hosted targets that name none (checked against the engine table where used). */
  engine: z
    .string()
    .regex(/^[a-z0-9][a-z0-9._-]*$/, 'is not an engine id')
    .default(DEFAULT_ENGINE),
  /** Engine release for targets that name none (`+ENGINE~VERSION`); empty or absent: the current release. */
  engineVersion: z.preprocess((v) => (v === '' ? undefined : v), engineVersionSchema.optional()),
  /** What TTFT includes: the HTTP server's overhead (a client's view) or only the engine's. */
  scope: scopeSchema.default(DEFAULT_SCOPE),
  /** Files larger than this are not tokenised in the editor (the status bar says so). */
  maxFileBytes: positiveInt.default(2_097_152),
  hover: enabled,
  statusBar: enabled,
  codeLens: enabled,
  decorations: enabled,
  diagnostics: enabled,
  findings: z.object({ disabled: findingSettingsSchema.shape.disabled }).prefault({}),
  rag: findingSettingsSchema.shape.rag,
  cache: z
    .object({
      ...findingSettingsSchema.shape.cache.unwrap().shape,
      /** Which cache TTL the cost of a cache write assumes. */
      ttl: cacheTtlSchema.default('5m'),
    })
    .prefault({}),
  instructions: findingSettingsSchema.shape.instructions,
  endpoints: z.array(endpointConfigSchema).default([]),
  benchmark: z
    .object({
      concurrency: z.array(positiveInt.max(4096)).min(1).default([1, 4, 16]),
      requests: positiveInt.max(100_000).default(20),
      warmup: z.number().int().min(0).max(100).default(1),
      cache: z.enum(['cold', 'warm', 'both']).default('both'),
      maxTokens: positiveInt.max(1_000_000).default(128),
      // setTimeout fires at once past 2³¹−1 ms, so these stop there (issue 16).
      timeoutMs: positiveInt.max(2_147_483_647).default(60_000),
      timeLimitSeconds: positiveInt.max(2_147_483).default(600),
    })
    .prefault({}),
  /** Unset limits are the profile's (see resolveProfile); `null` drops a limit. */
  slo: z.object({ ...sloSchema.shape, profile: sloSchema.shape.profile.unwrap().default('interactive') }).prefault({}),
  models: tableRows,
  hardware: tableRows,
  providers: tableRows,
  tableFile: z.string().default(''),
});

export type Settings = z.output<typeof settingsSchema>;

/**
 * Settings a hostile repository could abuse (point a benchmark and its key at its own server, load its own
 * tables, stall the extension host with globs, regular expressions or sizes): in an untrusted workspace only their
 * user-level values count. package.json's `restrictedConfigurations` lists the same keys (a test checks).
 */
export const RESTRICTED_SETTINGS = [
  'endpoints',
  'models',
  'hardware',
  'providers',
  'tableFile',
  'include',
  'variablePatterns',
  'maxFileBytes',
  'rag.pattern',
  'rag.slotPattern',
  'cache.dynamicPatterns',
] as const;

/** List settings whose user, workspace and folder values add up instead of overriding each other. */
export const MERGED_SETTINGS = ['endpoints', 'models', 'hardware', 'providers'] as const;

/** The settings' dotted keys, without the `promptLens.` section: `include`, `benchmark.requests`, … */
export function settingKeys(): string[] {
  return Object.entries(settingsSchema.shape).flatMap(([key, schema]) => {
    const group = unwrap(schema);
    return group instanceof z.ZodObject ? Object.keys(group.shape).map((leaf) => `${key}.${leaf}`) : [key];
  });
}

/**
 * A dotted key's value (`benchmark.requests`) in the tree of a section's values at one scope, as VS Code inspects the
 * whole section (`inspect('promptLens').workspaceValue`); undefined when not set there.
 */
export function valueAt(tree: unknown, key: string): unknown {
  let value = tree;
  for (const part of key.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The schema of one dotted key. */
export function settingSchema(key: string): z.ZodType {
  const [head, leaf] = key.split('.') as [keyof typeof settingsSchema.shape, string | undefined];
  const schema = settingsSchema.shape[head];
  if (leaf === undefined) return schema;
  return (unwrap(schema) as z.ZodObject).shape[leaf] as z.ZodType;
}

/** What a wrapper (default, prefault, optional) holds. */
function unwrap(schema: z.ZodType): z.ZodType {
  const def = schema.def as { type: string; innerType?: z.ZodType };
  return (def.type === 'default' || def.type === 'prefault' || def.type === 'optional') && def.innerType
    ? unwrap(def.innerType)
    : schema;
}

/**
 * Settings from raw values by dotted key (absent: unset, the default applies) under the one policy: valid fields
 * are kept, each bad field or list item is reported with its `promptLens.` path and dropped.
 */
export function parseSettings(values: ReadonlyMap<string, unknown>): {
  settings: Settings;
  problems: SettingProblem[];
} {
  const nested: Record<string, unknown> = {};
  for (const [key, value] of values) {
    if (value === undefined) continue;
    const [head, leaf] = key.split('.') as [string, string | undefined];
    if (leaf === undefined) nested[head] = value;
    else nested[head] = { ...(nested[head] as object | undefined), [leaf]: value };
  }
  const { value, problems } = keepValid(settingsSchema, nested, 'promptLens.');
  return { settings: value, problems };
}
