import { formatMs, formatUsd } from '../format';
import type { CompareRow } from './types';

/** The comparison table's columns, shared by the CLI table and the webview. */
export type ColumnKey =
  | 'target'
  | 'kind'
  | 'ttftP50'
  | 'ttftP99'
  | 'coldTtftP99'
  | 'tpot'
  | 'e2e'
  | 'costPer1k'
  | 'costPerM'
  | 'throughput'
  | 'verdict';

export interface Column {
  key: ColumnKey;
  title: string;
  numeric: boolean;
  /** Shown only when a cached prefix was given. */
  warmOnly?: boolean;
  value: (row: CompareRow) => number | string;
  format: (row: CompareRow) => string;
}

export const COLUMNS: readonly Column[] = [
  { key: 'target', title: 'Target', numeric: false, value: (r) => r.target, format: (r) => r.target },
  { key: 'kind', title: 'Kind', numeric: false, value: (r) => r.kind, format: (r) => r.kind },
  {
    key: 'ttftP50',
    title: 'TTFT p50',
    numeric: true,
    value: (r) => r.ttftMs.p50,
    format: (r) => formatMs(r.ttftMs.p50),
  },
  {
    key: 'ttftP99',
    title: 'TTFT p99',
    numeric: true,
    value: (r) => r.ttftMs.p99,
    format: (r) => formatMs(r.ttftMs.p99),
  },
  {
    key: 'coldTtftP99',
    title: 'cold p99',
    numeric: true,
    warmOnly: true,
    value: (r) => r.coldTtftMs.p99,
    format: (r) => formatMs(r.coldTtftMs.p99),
  },
  { key: 'tpot', title: 'TPOT', numeric: true, value: (r) => r.tpotMs, format: (r) => formatMs(r.tpotMs) },
  { key: 'e2e', title: 'E2E', numeric: true, value: (r) => r.e2eMs, format: (r) => formatMs(r.e2eMs) },
  {
    key: 'costPer1k',
    title: '$/1k calls',
    numeric: true,
    value: (r) => r.costPer1kCallsUsd,
    format: (r) => formatUsd(r.costPer1kCallsUsd),
  },
  {
    key: 'costPerM',
    title: '$/M output',
    numeric: true,
    value: (r) => r.costPerMOutputUsd,
    format: (r) => formatUsd(r.costPerMOutputUsd),
  },
  {
    key: 'throughput',
    title: 'tok/s',
    numeric: true,
    value: (r) => r.throughputTokPerS,
    format: (r) => Math.round(r.throughputTokPerS).toLocaleString('en-US'),
  },
  // Sorting by verdict puts meeting rows ('') first, failing ones grouped by how they fail.
  {
    key: 'verdict',
    title: 'SLO',
    numeric: false,
    value: (r) => (r.meetsSlo ? '' : r.verdict),
    format: (r) => (r.meetsSlo ? 'meets' : r.verdict),
  },
];

/** The columns for these rows: `cold p99` only when some row has a cached prefix. */
export function columnsFor(rows: readonly CompareRow[]): Column[] {
  const warm = rows.some((r) => r.cachedTokens > 0);
  return COLUMNS.filter((c) => warm || !c.warmOnly);
}
