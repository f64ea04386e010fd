// Pure helpers of the Compare Targets view: columns, sorting and filtering (unit-tested in Node).
import type { CompareRow } from '../../core/compare/types';
import { COLUMNS, type Column, type ColumnKey } from '../../core/compare/columns';

/** `rank` is compareTargets' order; the others are table columns. */
export type SortKey = 'rank' | ColumnKey;
export interface SortState {
  key: SortKey;
  direction: 'asc' | 'desc';
}
export type KindFilter = 'all' | CompareRow['kind'];
export interface FilterState {
  text: string;
  meetsOnly: boolean;
  kind: KindFilter;
}

export const DEFAULT_SORT: SortState = { key: 'rank', direction: 'asc' };
export const DEFAULT_FILTER: FilterState = { text: '', meetsOnly: false, kind: 'all' };

/** Clicking the sorted column flips its direction; another column sorts ascending. */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: 'asc' };
}

/**
 * `rank` is the order compareTargets gave (SLO first, then cost); other keys compare the column's value, ties keep
 * rank.
 */
export function sortRows(rows: readonly CompareRow[], sort: SortState): CompareRow[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const column = COLUMNS.find((c) => c.key === sort.key);
  const ranked = rows.map((row, rank) => ({ row, rank }));
  ranked.sort((a, b) => {
    if (!column) return sign * (a.rank - b.rank);
    const x = column.value(a.row);
    const y = column.value(b.row);
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return sign * order || a.rank - b.rank;
  });
  return ranked.map((r) => r.row);
}

/** Text matches the target, its verdict or its notes, case-insensitively; every word must match. */
export function filterRows(rows: readonly CompareRow[], filter: FilterState): CompareRow[] {
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  return rows.filter((row) => {
    if (filter.meetsOnly && !row.meetsSlo) return false;
    if (filter.kind !== 'all' && row.kind !== filter.kind) return false;
    const haystack = [row.target, row.verdict, ...row.notes].join(' ').toLowerCase();
    return words.every((w) => haystack.includes(w));
  });
}

export function visibleRows(rows: readonly CompareRow[], filter: FilterState, sort: SortState): CompareRow[] {
  return sortRows(filterRows(rows, filter), sort);
}

/** aria-sort for a column header. */
export function ariaSort(sort: SortState, key: SortKey): 'ascending' | 'descending' | 'none' {
  if (sort.key !== key) return 'none';
  return sort.direction === 'asc' ? 'ascending' : 'descending';
}

/**
 * Columns shown until the reader picks others: what decides a choice (first-token latency, cost, the verdict) fits a
 * 700 px editor group; the rest are a click away.
 */
export const DEFAULT_COLUMNS: readonly ColumnKey[] = ['target', 'ttftP50', 'costPer1k', 'verdict'];

/** The available columns the reader chose to see, in table order; the target column is always shown. */
export function shownColumns(available: readonly Column[], chosen: readonly ColumnKey[]): Column[] {
  return available.filter((c) => c.key === 'target' || chosen.includes(c.key));
}

export function toggleColumn(chosen: readonly ColumnKey[], key: ColumnKey): ColumnKey[] {
  return chosen.includes(key) ? chosen.filter((k) => k !== key) : [...chosen, key];
}

/** The verdict in a few characters (the full one is the cell's tooltip): "✓ meets", "✗ TTFT + TPOT". */
export function shortVerdict(row: CompareRow): string {
  if (row.meetsSlo) return '✓ meets';
  return `✗ ${row.failing.map((m) => m.toUpperCase()).join(' + ')}`;
}
