import type { AppliedCorrection } from '../calibrate/appliedCorrection';
// The comparison's data: what the core computes and the Compare view renders. Types only (and one type
// import), so the browser bundle's type check does not pull in the Node-side estimator.
import type { Precision } from '../estimate/schemas';

/** What a workload cares about: the SLO it must meet and the cost it ranks by. */
export interface WorkloadProfile {
  name: 'interactive' | 'batch' | 'custom';
  /** TTFT limit on the p99 request at `concurrency`; null: no TTFT SLO. */
  ttftMs: number | null;
  /** TPOT limit (typical decode step at batch `concurrency`); null: no TPOT SLO. */
  tpotMs: number | null;
  /** Requests in flight together: the expected p95 concurrency (interactive) or the batch size (batch). */
  concurrency: number;
  outputTokens: number;
  /** interactive ranks by $ per 1,000 calls; batch by $ per million output tokens. */
  rankBy: 'costPer1kCalls' | 'costPerMOutput';
}

export type SloMetric = 'ttft' | 'tpot';

/** One target judged against a profile: what the comparison table shows. */
export interface CompareRow {
  target: string;
  kind: 'provider' | 'self-hosted';
  /** Self-hosted only: what is deployed and its hourly price. */
  deployment?: {
    model: string;
    hardware: string;
    gpus: number;
    precision: Precision;
    usdPerGpuHour: number;
    priceSource: string;
  };
  /** The serving stack and measurement scope the latency assumes ("OpenAI API · client side"). */
  serving: string;
  inputTokens: number;
  tokensExact: boolean;
  /** Set when `inputTokens` is an approximate count corrected by the target's endpoint's bills. */
  tokensCorrected?: AppliedCorrection;
  /** Prefix tokens the warm figures take from the cache, under this target's cache rule; 0: cold only. */
  cachedTokens: number;
  /** Why a given cached prefix is not cached on this target (no prompt caching, below its minimum). */
  noWarm?: string;
  /** At the profile's concurrency; warm when a cached prefix was given. */
  ttftMs: { p50: number; p99: number };
  coldTtftMs: { p50: number; p99: number };
  tpotMs: number;
  e2eMs: number;
  meetsSlo: boolean;
  /** The metrics over their limit (warm case). */
  failing: SloMetric[];
  /** "meets" or what fails, e.g. "TTFT p99 812 ms > 500 ms". */
  verdict: string;
  coldMeetsSlo: boolean;
  costPer1kCallsUsd: number;
  costPerMOutputUsd: number;
  /** Self-hosted: output tokens/s of one replica at the batch; provider: this client's C streams together. */
  throughputTokPerS: number;
  prefillBound: 'compute' | 'memory' | null;
  decodeBound: 'compute' | 'memory' | null;
  calibrated: boolean;
  /** Where the latency comes from: a provider profile's basis, the self-hosted model, or a calibrated profile. */
  latencyBasis: 'measured' | 'mixed' | 'assumed' | 'modelled' | 'calibrated';
  notes: string[];
}

export interface CompareResult {
  profile: WorkloadProfile;
  model: string | null;
  /** Sorted: rows meeting the SLO first by the profile's cost, then the rest by cost. */
  rows: CompareRow[];
  /** What every figure of the table assumes, said once above it: "cold, 8 concurrent requests, 256 output tokens". */
  scenario: string;
  /** How the numbers were made, in words (the view and the CLI print these). */
  assumptions: string[];
  /** Targets left out and why (context window, memory). */
  skipped: string[];
}
