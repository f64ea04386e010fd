/**
 * What findings need from the estimation engine, injected so findings can be computed and tested
 * without it: `findingTarget()` (targets.ts) adapts the engine; `linearCostModel` is a simple,
 * hand-checkable model for tests.
 */
export interface CacheRule {
  /** Fewest prefix tokens that are cached at all (OpenAI 1,024; a vLLM block: 16). */
  minTokens: number;
  /** Cached prefixes are whole multiples of this (OpenAI 128; vLLM/SGLang block size). */
  granularity: number;
}

export interface FindingCostModel {
  /** Shown in messages, e.g. "llama-3.1-70b · 4×h100-sxm". */
  label: string;
  contextWindow?: number;
  cacheRule: CacheRule;
  ttftMs(inputTokens: number, cachedTokens: number): number;
  /** null when the target has no price (self-hosted hardware used for latency only). */
  costUsd(inputTokens: number, cachedTokens: number): number | null;
}

/**
 * Tokens of a shared prefix that a cache can serve: nothing below the minimum, then whole
 * granules. At least one token of the request must still be computed, so a prompt that is
 * entirely shared caches one token less (vLLM and SGLang behave this way).
 */
export function cacheableTokens(sharedTokens: number, promptTokens: number, rule: CacheRule): number {
  const usable = Math.min(sharedTokens, promptTokens - 1);
  if (usable < rule.minTokens) return 0;
  return Math.floor(usable / rule.granularity) * rule.granularity;
}

export interface LinearCostParams {
  label: string;
  contextWindow?: number;
  cacheRule: CacheRule;
  /** Fixed part of TTFT (scheduling, network). */
  baseMs: number;
  /** Prefill time per uncached input token. */
  msPerToken: number;
  /** Time per cached token (reading the prefix from the cache is not free, but close). */
  msPerCachedToken: number;
  usdPerMillionInput: number;
  usdPerMillionCached: number;
}

/** TTFT and cost linear in uncached and cached tokens: the simplest model that shows cache effects. */
export function linearCostModel(p: LinearCostParams): FindingCostModel {
  return {
    label: p.label,
    ...(p.contextWindow === undefined ? {} : { contextWindow: p.contextWindow }),
    cacheRule: p.cacheRule,
    ttftMs: (input, cached) => p.baseMs + (input - cached) * p.msPerToken + cached * p.msPerCachedToken,
    costUsd: (input, cached) => ((input - cached) * p.usdPerMillionInput + cached * p.usdPerMillionCached) / 1e6,
  };
}
