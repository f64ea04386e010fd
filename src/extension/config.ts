import * as vscode from 'vscode';
import { z } from 'zod';
import { DEFAULT_INCLUDE_GLOBS } from '../core/promptFiles';

const positiveInt = z.number().int().positive();

/** Settings as the extension uses them; every value read from VS Code is validated here. */
const settingsSchema = z.object({
  include: z.array(z.string().min(1)).default([...DEFAULT_INCLUDE_GLOBS]),
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
    .default({ concurrency: [1, 4, 16], requests: 20, warmup: 1, cache: 'both', maxTokens: 128, timeoutMs: 60_000, timeLimitSeconds: 600 }),
  slo: z
    .object({
      ttftMs: z.number().positive().default(500),
      tpotMs: z.number().positive().default(30),
      concurrency: positiveInt.default(1),
      outputTokens: positiveInt.default(256),
    })
    .default({ ttftMs: 500, tpotMs: 30, concurrency: 1, outputTokens: 256 }),
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
