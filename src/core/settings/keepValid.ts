import type { z } from 'zod';

/** A rejected field or list item: where (`benchmark.requests`, `endpoints[1].baseUrl`), why, and what was dropped. */
export interface SettingProblem {
  path: string;
  message: string;
  dropped: 'field' | 'item' | 'all';
}

export interface Validated<T> {
  value: T;
  problems: SettingProblem[];
}

/** `path: message; what happened`, for a warning shown to the user. */
export function describeProblem(p: SettingProblem): string {
  const outcome = { field: 'using the default', item: 'item skipped', all: 'using the defaults' }[p.dropped];
  return `${p.path}: ${p.message}; ${outcome}`;
}

/** A path as users write it: `benchmark.requests`, `endpoints[1].baseUrl`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)),
    '',
  );
}

/**
 * The settings policy: keep every valid field, report each bad one with its path and drop it — a bad list item
 * is dropped from its list, a bad field falls back to its default — so one typo never resets its neighbours.
 * `prefix` goes before each path (`promptLens.`).
 */
export function keepValid<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): Validated<z.output<S>> {
  const problems: SettingProblem[] = [];
  let candidate: unknown;
  try {
    // A copy (rejected fields are deleted from it); VS Code hands settings out as proxies, this makes them data.
    candidate = structuredClone(input ?? {});
  } catch {
    candidate = {};
    problems.push({ path: prefix || 'settings', message: 'not plain JSON data', dropped: 'all' });
  }
  // Original indices of the items dropped from each list, so that later problems name the user's index.
  const removed = new Map<unknown[], number[]>();
  // Each round drops one bad field or item; the bound only guards against a schema that never settles.
  for (let round = 0; round < 256; round++) {
    const result = schema.safeParse(candidate);
    if (result.success) return { value: result.data, problems };
    const issue = result.error.issues[0]!;
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    const dropped = drop(candidate, path, removed);
    problems.push({
      path: `${prefix}${formatPath(dropped ? [...dropped, ...path.slice(dropped.length)] : path)}` || 'settings',
      message: issue.message,
      dropped: dropped === null ? 'all' : typeof dropped[dropped.length - 1] === 'number' ? 'item' : 'field',
    });
    if (dropped === null) candidate = {};
  }
  return { value: schema.parse({}), problems };
}

/**
 * Removes the list item or field an issue points at (the outermost list item on the path); its path as the user
 * wrote it (the item's index before earlier rounds removed items), or null.
 */
function drop(
  root: unknown,
  path: Array<string | number>,
  removed: Map<unknown[], number[]>,
): Array<string | number> | null {
  const firstIndex = path.findIndex((p) => typeof p === 'number');
  const target = firstIndex === -1 ? path : path.slice(0, firstIndex + 1);
  if (target.length === 0) return null;
  let node: unknown = root;
  for (const key of target.slice(0, -1)) {
    if (typeof node !== 'object' || node === null) return null;
    node = (node as Record<string | number, unknown>)[key];
  }
  const last = target[target.length - 1]!;
  if (Array.isArray(node) && typeof last === 'number' && last < node.length) {
    node.splice(last, 1);
    const gone = removed.get(node) ?? [];
    let original = last;
    for (const index of gone) if (index <= original) original++;
    removed.set(
      node,
      [...gone, original].sort((a, b) => a - b),
    );
    return [...target.slice(0, -1), original];
  }
  if (typeof node === 'object' && node !== null && typeof last === 'string' && last in node) {
    delete (node as Record<string, unknown>)[last];
    return target;
  }
  return null;
}
