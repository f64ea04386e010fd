/**
 * Self-hosted cost at the batch a profile implies: a replica kept busy with `batch` requests in flight. Each call
 * occupies the replica for its share of a wave of `batch` prefills — max(batch × compute, one weight read) ÷ batch
 * + tensor-parallel communication (compute adds up, the weight read is shared) — plus its share of the decode
 * steps, output tokens × TPOT at that batch ÷ batch. Fixed per-request overhead is CPU time and is not charged.
 */
export interface PrefillWork {
  computeMs: number;
  memoryMs: number;
  commMs: number;
}

export interface ReplicaTime {
  prefillMs: number;
  decodeMs: number;
  /** Replica wall time one call accounts for. */
  totalMs: number;
}

export function replicaTimePerCall(
  prefill: PrefillWork,
  tpotMs: number,
  outputTokens: number,
  batch: number,
): ReplicaTime {
  const prefillMs = Math.max(batch * prefill.computeMs, prefill.memoryMs) / batch + prefill.commMs;
  const decodeMs = (outputTokens * tpotMs) / batch;
  return { prefillMs, decodeMs, totalMs: prefillMs + decodeMs };
}

/** Every GPU of the replica is billed for the time the call accounts for. */
export function selfHostedCallUsd(replicaMs: number, gpus: number, usdPerGpuHour: number): number {
  return (gpus * usdPerGpuHour * replicaMs) / 3_600_000;
}

/** Output tokens one replica produces per second at that batch. */
export function replicaTokensPerSecond(time: ReplicaTime, outputTokens: number): number {
  return (outputTokens * 1000) / time.totalMs;
}
