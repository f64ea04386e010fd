/**
 * How long the simulated target takes. The estimation engine can stand in for the default by
 * implementing this interface (`serve-sim --target`).
 */
export interface SimLatencyModel {
  /** Milliseconds to prefill `newTokens` prompt tokens when `cachedTokens` more came from the prefix cache. */
  prefillMs(newTokens: number, cachedTokens: number): number;
  /** Milliseconds per output token at this context length while `batch` sequences decode together. */
  tpotMs(contextTokens: number, batch: number): number;
}

export interface LinearLatencyParams {
  /** Fixed cost of any prefill (scheduling, the first forward pass). */
  prefillBaseMs: number;
  /** Prefill speed for tokens not in the cache. */
  prefillTokensPerSecond: number;
  /** Decode step time for a lone short sequence. */
  tpotBaseMs: number;
  /** Extra decode time per 1,000 context tokens (attention reads the KV cache). */
  tpotMsPer1kContext: number;
  /** Extra decode time per additional sequence in the batch. */
  tpotMsPerExtraSequence: number;
}

/** Roughly a small model on one datacenter GPU: ~4k tok/s prefill, ~15 ms/token decode. */
export const DEFAULT_LATENCY_PARAMS: LinearLatencyParams = {
  prefillBaseMs: 20,
  prefillTokensPerSecond: 4000,
  tpotBaseMs: 15,
  tpotMsPer1kContext: 0.5,
  tpotMsPerExtraSequence: 0.2,
};

/** Linear in new prompt tokens (cached ones are free), linear in context and batch for decode. */
export function linearLatencyModel(params: LinearLatencyParams = DEFAULT_LATENCY_PARAMS): SimLatencyModel {
  return {
    prefillMs: (newTokens) => params.prefillBaseMs + (newTokens / params.prefillTokensPerSecond) * 1000,
    tpotMs: (contextTokens, batch) =>
      params.tpotBaseMs +
      (contextTokens / 1000) * params.tpotMsPer1kContext +
      Math.max(0, batch - 1) * params.tpotMsPerExtraSequence,
  };
}
