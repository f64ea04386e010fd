import type { CompareRow, WorkloadProfile } from './types';

export type RankBy = WorkloadProfile['rankBy'];

export function rankCost(row: CompareRow, rankBy: RankBy): number {
  return rankBy === 'costPer1kCalls' ? row.costPer1kCallsUsd : row.costPerMOutputUsd;
}

/** Rows that meet the SLO first, each group by the profile's cost, ties by target id. */
export function sortRows(rows: readonly CompareRow[], rankBy: RankBy): CompareRow[] {
  return [...rows].sort(
    (a, b) =>
      Number(b.meetsSlo) - Number(a.meetsSlo) ||
      rankCost(a, rankBy) - rankCost(b, rankBy) ||
      a.target.localeCompare(b.target),
  );
}

/** The cheapest row that meets the SLO (the hover's summary); undefined when none does. */
export function cheapestMeeting(
  rows: readonly CompareRow[],
  rankBy: RankBy = 'costPer1kCalls',
): CompareRow | undefined {
  return sortRows(
    rows.filter((r) => r.meetsSlo),
    rankBy,
  )[0];
}
