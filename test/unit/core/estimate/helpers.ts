import {
  loadTables,
  resolveTarget,
  parseTargetId,
  type ResolvedTarget,
  type TargetAssumptions,
  type Tables,
} from '../../../../src/core/estimate';

export const builtin: Tables = loadTables().tables;

export function target(id: string, tables: Tables = builtin, assume: TargetAssumptions = {}): ResolvedTarget {
  return resolveTarget(parseTargetId(id), tables, assume);
}

export function selfHosted(
  id: string,
  tables: Tables = builtin,
  assume: TargetAssumptions = {},
): Extract<ResolvedTarget, { kind: 'self-hosted' }> {
  const t = target(id, tables, assume);
  if (t.kind !== 'self-hosted') throw new Error(`${id} is not self-hosted`);
  return t;
}

export function provider(id: string) {
  const p = builtin.providers.get(id);
  if (!p) throw new Error(`no provider row ${id}`);
  return p;
}

export const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
