import * as vscode from 'vscode';
import type { FrontMatterProfile } from '../core/compare/frontMatter';
import { resolveProfile, type SloSettings, type WorkloadProfile } from '../core/compare/profiles';
import { describeProblem } from '../core/settings/keepValid';
import {
  MERGED_SETTINGS,
  RESTRICTED_SETTINGS,
  parseSettings,
  settingKeys,
  valueAt,
  type Settings,
} from '../core/settings/schema';

export type { Settings } from '../core/settings/schema';

export interface SettingsResult {
  /** Shared by every reader until the next change: never modified. */
  readonly settings: Readonly<Settings>;
  /** One message per rejected setting or list item, naming it (`promptLens.benchmark.requests: …`). */
  readonly problems: readonly string[];
}

const restricted = new Set<string>(RESTRICTED_SETTINGS);
const merged = new Set<string>(MERGED_SETTINGS);

/**
 * The one place the extension reads `promptLens.*`: every key validated by the core schema, read once per
 * configuration (or trust) change and per workspace folder, then cached. extension.ts clears it first in its one
 * configuration listener, then rebuilds what depends on it.
 */
class SettingsCache {
  private readonly byFolder = new Map<string, SettingsResult>();

  get(scope?: vscode.Uri): SettingsResult {
    const folder = scope ? vscode.workspace.getWorkspaceFolder(scope) : undefined;
    const key = folder?.uri.toString() ?? '';
    let result = this.byFolder.get(key);
    if (!result) this.byFolder.set(key, (result = read(folder?.uri)));
    return result;
  }

  clear(): void {
    this.byFolder.clear();
  }
}

/**
 * Only values someone set (VS Code fills unset settings from package.json, and a number setting without a default
 * with 0, which is no SLO at all); the schema's defaults fill the rest, and the contract test keeps both equal.
 * Restricted settings keep only their user value in an untrusted workspace; list settings in MERGED_SETTINGS
 * add up their user, workspace and folder values.
 */
function read(scope: vscode.Uri | undefined): SettingsResult {
  // One inspect of the whole section: one per key (46) held the host 10-30 ms on the first hover.
  const section = vscode.workspace.getConfiguration(undefined, scope).inspect<unknown>('promptLens');
  const trusted = vscode.workspace.isTrusted;
  const values = new Map<string, unknown>();
  for (const key of settingKeys()) {
    const scopes = [valueAt(section?.globalValue, key)];
    if (trusted || !restricted.has(key))
      scopes.push(valueAt(section?.workspaceValue, key), valueAt(section?.workspaceFolderValue, key));
    const set = scopes.filter((v) => v !== undefined);
    if (set.length === 0) continue;
    values.set(key, merged.has(key) && set.every(Array.isArray) ? set.flat() : set[set.length - 1]);
  }
  const { settings, problems } = parseSettings(values);
  return { settings, problems: problems.map(describeProblem) };
}

export const settingsCache = new SettingsCache();

/** The validated settings for a document's folder (or the window), from the cache. */
export function readSettings(scope?: vscode.Uri): SettingsResult {
  return settingsCache.get(scope);
}

/**
 * The workload the estimates assume: `promptLens.slo.*` (only values the user set override the profile's), then
 * the prompt's own front matter (`profile:`, read by the analysis worker: the host parses no YAML), then an
 * agent's scenario, over the interactive profile.
 */
export function readWorkloadProfile(
  frontMatter?: FrontMatterProfile,
  scope?: vscode.Uri,
  scenario?: SloSettings,
): { profile: WorkloadProfile; problems: string[] } {
  // Bad slo.* settings are among readSettings' problems; only the front matter's are added here.
  const { slo } = readSettings(scope).settings;
  const problems = (frontMatter?.problems ?? []).map((p) => `front matter: ${p}`);
  return { profile: resolveProfile({ ...slo, ...frontMatter?.slo, ...scenario }), problems };
}
