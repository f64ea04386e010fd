import type { CompareRow, WorkloadProfile } from './types';

/** The levers that change a verdict, in the words the view shows. */
export const NOTE = {
  cachingOnly: 'meets the SLO with prefix caching only',
  cheaperWider: 'compute-bound prefill: a cheaper GPU with more count meets it',
  decodeBound: 'decode-bound: HBM bandwidth, not FLOPs, decides',
  overConcurrency: 'over the SLO at this concurrency: chunked prefill or more replicas',
} as const;

export interface RowFacts {
  /** Self-hosted, failing at the profile's concurrency: whether one request in flight meets the SLO. */
  singleRequestMeets: boolean | undefined;
  /** Self-hosted: the GPU's HBM bandwidth. */
  bandwidthTBs: number | undefined;
}

/** Notes that one row's own numbers decide. */
export function rowNotes(row: CompareRow, profile: WorkloadProfile, facts: RowFacts): string[] {
  const notes: string[] = [];
  if (row.cachedTokens > 0 && row.meetsSlo && !row.coldMeetsSlo)
    notes.push(`${NOTE.cachingOnly} (cold TTFT p99 ${Math.round(row.coldTtftMs.p99)} ms)`);
  if (row.failing.includes('tpot') && row.decodeBound === 'memory' && facts.bandwidthTBs !== undefined) {
    notes.push(
      `${NOTE.decodeBound} (${facts.bandwidthTBs} TB/s per GPU; TPOT ${row.tpotMs.toFixed(1)} ms > ${profile.tpotMs} ms)`,
    );
  }
  if (facts.singleRequestMeets === true) notes.push(`${NOTE.overConcurrency} (meets it with one request in flight)`);
  return notes;
}

/**
 * A self-hosted row over the TTFT limit with compute-bound prefill, where the same model and precision on a GPU
 * with a lower $/hour, at a larger count, meets the SLO: names the cheapest such row.
 */
export function addCheaperWiderNotes(rows: CompareRow[]): void {
  for (const row of rows) {
    const d = row.deployment;
    if (!d || !row.failing.includes('ttft') || row.prefillBound !== 'compute') continue;
    const better = rows
      .filter(
        (r) =>
          r.meetsSlo &&
          r.deployment &&
          r.deployment.model === d.model &&
          r.deployment.precision === d.precision &&
          r.deployment.usdPerGpuHour < d.usdPerGpuHour &&
          r.deployment.gpus > d.gpus,
      )
      .sort((a, b) => a.costPer1kCallsUsd - b.costPer1kCallsUsd)[0];
    if (better) row.notes.push(`${NOTE.cheaperWider} (${better.target})`);
  }
}
