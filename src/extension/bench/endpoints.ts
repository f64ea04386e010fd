import type { EndpointConfig } from '../../core/bench/endpoints';
import { readSettings } from '../settings';

export interface EndpointList {
  endpoints: EndpointConfig[];
  /** One message per invalid entry, naming it and the field at fault. */
  problems: string[];
}

/**
 * `promptLens.endpoints` from user settings, plus workspace and folder settings only when the workspace is trusted
 * (a hostile repository could otherwise point a benchmark, and the key, at its own server): the settings module
 * reads it so (RESTRICTED_SETTINGS, MERGED_SETTINGS). Later scopes override earlier ones by name.
 */
export function readEndpoints(): EndpointList {
  const { settings, problems } = readSettings();
  const byName = new Map(settings.endpoints.map((e) => [e.name, e]));
  return { endpoints: [...byName.values()], problems: problems.filter((p) => p.startsWith('promptLens.endpoints')) };
}
