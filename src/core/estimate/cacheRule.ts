import type { ResolvedTarget } from './targets';

/** How a target's prefix cache serves a shared prefix. */
export interface CacheRule {
  /** Fewest prefix tokens that are cached at all (OpenAI 1,024; a vLLM block: 16). */
  minTokens: number;
  /** Cached prefixes are whole multiples of this (OpenAI 128; vLLM/SGLang block size). */
  granularity: number;
}

/** vLLM's default KV block size: a self-hosted prefix cache reuses whole 16-token blocks. */
export const DEFAULT_BLOCK_TOKENS = 16;

export function cacheRuleOf(target: ResolvedTarget, blockTokens = DEFAULT_BLOCK_TOKENS): CacheRule | undefined {
  if (target.kind === 'self-hosted') return { minTokens: blockTokens, granularity: blockTokens };
  const { caching } = target.provider;
  return caching.mode === 'none'
    ? undefined
    : { minTokens: Math.max(1, caching.minTokens), granularity: caching.granularity };
}

/**
 * Tokens of a shared prefix that a cache can serve: nothing below the minimum, then whole
 * granules. At least one token of the request must still be computed, so a prompt that is
 * entirely shared caches one token less (vLLM and SGLang behave this way). No rule: nothing.
 */
export function cacheableTokens(sharedTokens: number, promptTokens: number, rule: CacheRule | undefined): number {
  if (!rule) return 0;
  const usable = Math.min(sharedTokens, promptTokens - 1);
  if (usable < rule.minTokens) return 0;
  return Math.floor(usable / rule.granularity) * rule.granularity;
}
