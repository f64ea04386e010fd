/**
 * Concurrency model: C requests arrive at the same moment and are served first come, first served, in random
 * order. Prefills run together in one batch per wave but their compute adds up: the request served k-th sees its
 * first token after max(k × compute, weight read) + k × communication — compute-bound prefills serialise, while
 * memory-bound (short) prefills share one pass over the weights. The q-quantile request is k = ceil(q·C).
 * This is the pessimistic burst case; independent arrivals queue less.
 */
export interface PrefillParts {
  computeMs: number;
  memoryMs: number;
  commMs: number;
}

export function queuedPrefillMs(parts: PrefillParts, concurrency: number, quantile: number): number {
  const k = Math.max(1, Math.ceil(quantile * concurrency));
  return Math.max(k * parts.computeMs, parts.memoryMs) + k * parts.commMs;
}
