import { estimate, targetLabel, targetTokenizer, type ResolvedTarget } from '../estimate';
import type { TokenizerId } from '../tokenize/types';
import type { CacheRule, FindingCostModel } from './costModel';

export interface FindingTarget {
  model: FindingCostModel;
  tokenizer: TokenizerId;
}

/** vLLM's default KV block size: a self-hosted prefix cache reuses whole 16-token blocks. */
export const DEFAULT_BLOCK_TOKENS = 16;

/** A provider without prompt caching caches nothing, whatever is shared. */
const NO_CACHE: CacheRule = { minTokens: Number.MAX_SAFE_INTEGER, granularity: 1 };

export function cacheRuleOf(target: ResolvedTarget, blockTokens = DEFAULT_BLOCK_TOKENS): CacheRule {
  if (target.kind === 'self-hosted') return { minTokens: blockTokens, granularity: blockTokens };
  const { caching } = target.provider;
  return caching.mode === 'none' ? NO_CACHE : { minTokens: Math.max(1, caching.minTokens), granularity: caching.granularity };
}

/**
 * The estimation engine as findings see it: TTFT and input cost of a prompt with some tokens cached
 * (output is left out — findings compare prompts, and output cost does not depend on the prompt).
 */
export function findingTarget(target: ResolvedTarget, blockTokens = DEFAULT_BLOCK_TOKENS): FindingTarget {
  const at = (inputTokens: number, cachedTokens: number) => estimate(target, { inputTokens: Math.max(1, inputTokens), cachedTokens: Math.min(cachedTokens, Math.max(0, inputTokens - 1)), outputTokens: 0 });
  return {
    tokenizer: targetTokenizer(target),
    model: {
      label: targetLabel(target),
      contextWindow: target.kind === 'provider' ? target.provider.contextWindow : target.model.contextWindow,
      cacheRule: cacheRuleOf(target, blockTokens),
      ttftMs: (inputTokens, cachedTokens) => at(inputTokens, cachedTokens).ttftMs.p50,
      costUsd: (inputTokens, cachedTokens) => at(inputTokens, cachedTokens).costUsd,
    },
  };
}
