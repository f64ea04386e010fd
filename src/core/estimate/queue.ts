/**
 * Concurrency model: C requests arrive at the same moment and are served first come, first served, in random
 * order. Prefills run together in one batch per wave but their compute adds up: the request served k-th sees its
 * first token after max(k × compute, weight read) + k × communication — compute-bound prefills serialise, while
 * memory-bound (short) prefills share one pass over the weights. With P pipeline stages the requests behind the
 * first overlap with it stage by stage, so each adds 1/P of a prefill. The q-quantile request is k = ceil(q·C).
 * This is the pessimistic burst case; independent arrivals queue less.
 */
export interface PrefillParts {
  computeMs: number;
  memoryMs: number;
  commMs: number;
  stages?: number;
}

export function queuedPrefillMs(parts: PrefillParts, concurrency: number, quantile: number): number {
  const k = Math.max(1, Math.ceil(quantile * concurrency));
  const waves = 1 + (k - 1) / (parts.stages ?? 1);
  return Math.max(waves * parts.computeMs, parts.memoryMs) + waves * parts.commMs;
}
