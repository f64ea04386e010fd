// The price drift check's logic, free of the reference library so tests can feed it a fake one:
// a fixed grid of calls priced by this project's cost code and by a reference, every difference
// matched against the justified overrides.
import { z } from 'zod';
import { callCost, type CacheTtl, type ProviderRow } from '../../src/core/estimate';

/** One call of the grid, priced at a fixed time so the result never depends on when the check runs. */
export interface Scenario {
  name: 'cold' | 'cached' | 'write' | 'write-1h' | 'long' | 'peak';
  inputTokens: number;
  cachedPrefixTokens: number;
  outputTokens: number;
  warm: boolean;
  ttl: CacheTtl;
  at: Date;
}

/** Tuesday 2026-12-01 12:00 UTC: off-peak for DeepSeek; 09:00 the same day is peak. */
export const CHECK_TIME = new Date('2026-12-01T12:00:00Z');
export const PEAK_TIME = new Date('2026-12-01T09:00:00Z');

/** Usage in the reference's terms: input_tokens includes the cache read and write tokens. */
export interface ReferenceUsage {
  input_tokens: number;
  cache_read_tokens?: number;
  cache_write_tokens?: number;
  cache_write_1h_tokens?: number;
  output_tokens: number;
}

export interface Reference {
  /** Total price in USD, or undefined when the reference does not know the model. */
  price(row: ProviderRow, usage: ReferenceUsage, at: Date): { usd: number; model: string } | undefined;
  contextWindow(row: ProviderRow): number | undefined;
}

/** The grid for one row: cold, a cache hit, the first (writing) call, the long-context tier, peak hours. */
export function scenariosFor(row: ProviderRow): Scenario[] {
  const base = { outputTokens: 500, ttl: '5m' as CacheTtl, at: CHECK_TIME };
  const cachedPrefixTokens = 16_384; // above every cache minimum in the tables
  const grid: Scenario[] = [
    { ...base, name: 'cold', inputTokens: 2000, cachedPrefixTokens: 0, warm: false },
    { ...base, name: 'cached', inputTokens: 20_000, cachedPrefixTokens, warm: true },
    { ...base, name: 'write', inputTokens: 20_000, cachedPrefixTokens, warm: false },
  ];
  if (row.caching.extendedTtl || row.prices.cacheWrite1hPerM !== undefined)
    grid.push({ ...base, name: 'write-1h', inputTokens: 20_000, cachedPrefixTokens, warm: false, ttl: '1h' });
  const long = row.prices.longContext;
  if (long)
    grid.push({ ...base, name: 'long', inputTokens: long.aboveInputTokens + 1, cachedPrefixTokens: 0, warm: false });
  if (row.prices.peak)
    grid.push({ ...base, name: 'peak', inputTokens: 2000, cachedPrefixTokens: 0, warm: false, at: PEAK_TIME });
  return grid;
}

export interface Difference {
  id: string;
  /** A scenario name, or 'context' for the context window. */
  check: Scenario['name'] | 'context';
  ours: number;
  reference: number;
}

export interface DriftResult {
  /** Differences no override explains: each fails the check. */
  unexplained: Difference[];
  /** Differences an override explains. */
  explained: { difference: Difference; why: string }[];
  /** Overrides that no longer match a difference: stale, they fail the check too. */
  stale: Override[];
  /** Rows the reference does not know (not cross-checked). */
  unknownToReference: string[];
  /** Reference model ids matched by a row. */
  matched: Set<string>;
  /** How many comparisons were made. */
  compared: number;
}

export const overrideSchema = z
  .object({
    id: z.string().min(1),
    check: z.enum(['cold', 'cached', 'write', 'write-1h', 'long', 'peak', 'context']),
    /** Both values as they differ today, so a change on either side shows up as a stale override. */
    ours: z.number().finite().nonnegative(),
    reference: z.number().finite().nonnegative(),
    why: z.string().min(20, 'say why this project is right'),
    source: z.string().min(8, 'cite a source'),
  })
  .strict();
export type Override = z.infer<typeof overrideSchema>;
export const overridesFileSchema = z.object({ overrides: z.array(overrideSchema) }).strict();

/** Equal to a billionth of a dollar or a part in a billion: float noise, not drift. */
export function same(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

function usageFor(row: ProviderRow, s: Scenario): { usage: ReferenceUsage; ours: number } {
  const cost = callCost(row, { ...s, ttl: s.ttl, at: s.at }, s.warm);
  const usage: ReferenceUsage = { input_tokens: s.inputTokens, output_tokens: s.outputTokens };
  if (cost.cachedTokens > 0) usage.cache_read_tokens = cost.cachedTokens;
  if (cost.cacheWriteTokens > 0) {
    usage.cache_write_tokens = cost.cacheWriteTokens;
    if (s.ttl === '1h') usage.cache_write_1h_tokens = cost.cacheWriteTokens;
  }
  return { usage, ours: cost.totalUsd };
}

/** Prices the grid for every row both know and sorts each difference into explained or not. */
export function checkDrift(
  rows: readonly ProviderRow[],
  reference: Reference,
  overrides: readonly Override[],
): DriftResult {
  const differences: Difference[] = [];
  const unknownToReference: string[] = [];
  const matched = new Set<string>();
  let compared = 0;
  for (const row of rows) {
    let known = false;
    for (const s of scenariosFor(row)) {
      const { usage, ours } = usageFor(row, s);
      const ref = reference.price(row, usage, s.at);
      if (!ref) continue;
      known = true;
      matched.add(ref.model);
      compared += 1;
      if (!same(ours, ref.usd)) differences.push({ id: row.id, check: s.name, ours, reference: ref.usd });
    }
    if (!known) {
      unknownToReference.push(row.id);
      continue;
    }
    const window = reference.contextWindow(row);
    if (window !== undefined) {
      compared += 1;
      if (window !== row.contextWindow)
        differences.push({ id: row.id, check: 'context', ours: row.contextWindow, reference: window });
    }
  }
  const used = new Set<Override>();
  const explained: DriftResult['explained'] = [];
  const unexplained: Difference[] = [];
  for (const d of differences) {
    const o = overrides.find(
      (x) => x.id === d.id && x.check === d.check && same(x.ours, d.ours) && same(x.reference, d.reference),
    );
    if (o) {
      used.add(o);
      explained.push({ difference: d, why: o.why });
    } else unexplained.push(d);
  }
  return {
    unexplained,
    explained,
    stale: overrides.filter((o) => !used.has(o)),
    unknownToReference,
    matched,
    compared,
  };
}

export function formatDifference(d: Difference): string {
  const value = (n: number) => (d.check === 'context' ? n.toLocaleString('en-US') : `$${Number(n.toPrecision(10))}`);
  return `${d.id} ${d.check}: ours ${value(d.ours)}, genai-prices ${value(d.reference)}`;
}
