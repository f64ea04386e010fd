import * as vscode from 'vscode';
import { z } from 'zod';
import { DEFAULT_INCLUDE_GLOBS } from '../core/promptFiles';

/** Settings as the extension uses them; every value read from VS Code is validated here. */
const settingsSchema = z.object({
  include: z.array(z.string().min(1)).default([...DEFAULT_INCLUDE_GLOBS]),
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
    else problems.push(`promptLens.${key}: ${field.error.issues[0]?.message ?? 'invalid value'}; using the default`);
  }
  return { settings: settingsSchema.parse(raw), problems };
}
