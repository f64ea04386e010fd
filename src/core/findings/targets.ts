import { estimate, targetLabel, targetTokenizer, type Estimate, type ResolvedTarget } from '../estimate';
import type { TokenizerId } from '../tokenize/types';
import type { CacheRule, FindingCostModel } from './costModel';

export interface FindingTarget {
  model: FindingCostModel;
  tokenizer: TokenizerId;
}

/** Estimates kept per finding target; an editor session's edits keep adding new prompt lengths. */
const MEMO_LIMIT = 10_000;

/** vLLM's default KV block size: a self-hosted prefix cache reuses whole 16-token blocks. */
export const DEFAULT_BLOCK_TOKENS = 16;

/** A provider without prompt caching caches nothing, whatever is shared. */
const NO_CACHE: CacheRule = { minTokens: Number.MAX_SAFE_INTEGER, granularity: 1 };

export function cacheRuleOf(target: ResolvedTarget, blockTokens = DEFAULT_BLOCK_TOKENS): CacheRule {
  if (target.kind === 'self-hosted') return { minTokens: blockTokens, granularity: blockTokens };
  const { caching } = target.provider;
  return caching.mode === 'none'
    ? NO_CACHE
    : { minTokens: Math.max(1, caching.minTokens), granularity: caching.granularity };
}

/**
 * The estimation engine as findings see it: TTFT and input cost of a prompt with some tokens cached
 * (output is left out — findings compare prompts, and output cost does not depend on the prompt).
 */
export function findingTarget(target: ResolvedTarget, blockTokens = DEFAULT_BLOCK_TOKENS): FindingTarget {
  // Every group member asks for its cold and warm TTFT and cost on every finding of the group (a
  // report of N files in one group asks N² times): one estimate per (input, cached) pair.
  const estimates = new Map<string, Estimate>();
  const at = (inputTokens: number, cachedTokens: number): Estimate => {
    const key = `${inputTokens}:${cachedTokens}`;
    let e = estimates.get(key);
    if (!e) {
      if (estimates.size >= MEMO_LIMIT) estimates.clear();
      e = estimate(target, {
        inputTokens: Math.max(1, inputTokens),
        cachedTokens: Math.min(cachedTokens, Math.max(0, inputTokens - 1)),
        outputTokens: 0,
      });
      estimates.set(key, e);
    }
    return e;
  };
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
