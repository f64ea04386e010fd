/**
 * Concurrency model: C requests arrive at the same moment; prefill is compute-bound, so their prefills run one
 * after another (batching them together takes as long as running them in turn) in random order. The request
 * served k-th waits for k prefills, so the q-quantile TTFT is overhead + ceil(q·C) × prefill time.
 * This is the pessimistic burst case; independent arrivals queue less.
 */
export function queuedPrefillMs(prefillMs: number, concurrency: number, quantile: number): number {
  return prefillMs * Math.max(1, Math.ceil(quantile * concurrency));
}
