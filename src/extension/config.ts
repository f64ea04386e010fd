import * as vscode from 'vscode';
import { z } from 'zod';
import { parseSloSettings, promptSloSettings, resolveProfile, type WorkloadProfile } from '../core/compare';
import { cacheTtlSchema, DEFAULT_TARGET_IDS } from '../core/estimate';
import { DEFAULT_INCLUDE_GLOBS } from '../core/promptFiles';

const positiveInt = z.number().int().positive();

function isRegExp(source: string): boolean {
  try {
    new RegExp(source, 'g');
    return true;
  } catch {
    return false;
  }
}

/** Settings as the extension uses them; every value read from VS Code is validated here. */
const settingsSchema = z.object({
  include: z.array(z.string().min(1)).default([...DEFAULT_INCLUDE_GLOBS]),
  /** Target ids, primary first (validated against the tables where they are used). */
  targets: z
    .array(z.string().min(1))
    .min(1)
    .default([...DEFAULT_TARGET_IDS]),
  variablePatterns: z.array(z.string().min(1).refine(isRegExp, 'is not a valid regular expression')).default([]),
  /** Files larger than this are not tokenised in the editor (the status bar says so). */
  maxFileBytes: positiveInt.default(2_097_152),
  hover: z.object({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  statusBar: z.object({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  codeLens: z.object({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  decorations: z.object({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  diagnostics: z.object({ enabled: z.boolean().default(true) }).default({ enabled: true }),
  /** Which cache TTL the cost of a cache write assumes (the other cache.* keys are findings settings). */
  cache: z.object({ ttl: cacheTtlSchema.default('5m') }).default({ ttl: '5m' }),
  benchmark: z
    .object({
      concurrency: z.array(positiveInt.max(4096)).min(1).default([1, 4, 16]),
      requests: positiveInt.max(100_000).default(20),
      warmup: z.number().int().min(0).max(100).default(1),
      cache: z.enum(['cold', 'warm', 'both']).default('both'),
      maxTokens: positiveInt.max(1_000_000).default(128),
      timeoutMs: positiveInt.default(60_000),
      timeLimitSeconds: positiveInt.default(600),
    })
    .default({
      concurrency: [1, 4, 16],
      requests: 20,
      warmup: 1,
      cache: 'both',
      maxTokens: 128,
      timeoutMs: 60_000,
      timeLimitSeconds: 600,
    }),
});
export type Settings = z.infer<typeof settingsSchema>;

export interface SettingsResult {
  settings: Settings;
  /** One message per invalid setting, naming it; invalid settings fall back to their defaults. */
  problems: string[];
}

export function readSettings(scope?: vscode.ConfigurationScope): SettingsResult {
  const config = vscode.workspace.getConfiguration('promptLens', scope);
  const problems: string[] = [];
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(settingsSchema.shape) as (keyof Settings)[]) {
    const value = config.get<unknown>(key);
    const field = settingsSchema.shape[key].safeParse(value);
    if (field.success) raw[key] = value;
    else {
      const issue = field.error.issues[0];
      const path = issue?.path.length ? `.${issue.path.join('.')}` : '';
      problems.push(`promptLens.${key}${path}: ${issue?.message ?? 'invalid value'}; using the default`);
    }
  }
  return { settings: settingsSchema.parse(raw), problems };
}

/**
 * The workload the estimates assume: `promptLens.slo.*` (only values the user set override the
 * profile's), then the prompt's own front matter (`profile:`), over the interactive profile.
 */
export function readWorkloadProfile(
  documentText?: string,
  scope?: vscode.ConfigurationScope,
): { profile: WorkloadProfile; problems: string[] } {
  // Only values the user set: VS Code fills unset number settings with 0, which is no SLO at all.
  const config = vscode.workspace.getConfiguration('promptLens', scope);
  const set: Record<string, unknown> = {};
  for (const key of ['profile', 'ttftMs', 'tpotMs', 'concurrency', 'outputTokens']) {
    const inspected = config.inspect<unknown>(`slo.${key}`);
    const value = inspected?.workspaceFolderValue ?? inspected?.workspaceValue ?? inspected?.globalValue;
    if (value !== undefined) set[key] = value;
  }
  const fromSettings = parseSloSettings(set);
  const problems = fromSettings.problems.map((p) => `promptLens.slo.${p}`);
  const fromFile = documentText === undefined ? { problems: [] } : promptSloSettings(documentText);
  problems.push(...fromFile.problems.map((p) => `front matter: ${p}`));
  return { profile: resolveProfile({ ...fromSettings.slo, ...fromFile.slo }), problems };
}
