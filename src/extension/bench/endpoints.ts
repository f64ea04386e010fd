import * as vscode from 'vscode';
import { parseEndpoint, type EndpointConfig } from '../../core/bench/endpoints';

export interface EndpointList {
  endpoints: EndpointConfig[];
  /** One message per invalid entry, naming it and the field at fault. */
  problems: string[];
}

/**
 * `promptLens.endpoints` from user settings, plus workspace and folder settings only when the
 * workspace is trusted (a hostile repository could otherwise point a benchmark, and the key, at
 * its own server). Later scopes override earlier ones by name.
 */
export function readEndpoints(): EndpointList {
  const inspected = vscode.workspace.getConfiguration('promptLens').inspect<unknown>('endpoints');
  const trusted = vscode.workspace.isTrusted;
  const scopes: [string, unknown][] = [['user settings', inspected?.globalValue]];
  const workspaceScopes: [string, unknown][] = [
    ['workspace settings', inspected?.workspaceValue],
    ['folder settings', inspected?.workspaceFolderValue],
  ];
  if (trusted) scopes.push(...workspaceScopes);

  const byName = new Map<string, EndpointConfig>();
  const problems: string[] = [];
  for (const [scope, value] of scopes) {
    if (value === undefined) continue;
    if (!Array.isArray(value)) {
      problems.push(`promptLens.endpoints (${scope}): must be a list of endpoints`);
      continue;
    }
    value.forEach((item, index) => {
      const parsed = parseEndpoint(item);
      if (parsed.ok) byName.set(parsed.value.name, parsed.value);
      else problems.push(`promptLens.endpoints[${index}] (${scope}): ${parsed.error}`);
    });
  }
  return { endpoints: [...byName.values()], problems };
}
