import type { TokenizerId } from '../tokenize/types';
import { linearCostModel, PLACEHOLDER_COST_MODEL, type FindingCostModel } from './costModel';

export interface FindingTarget {
  model: FindingCostModel;
  tokenizer: TokenizerId;
}

/**
 * Targets the report can use until the estimation engine's targets are adapted to
 * FindingCostModel. Both are labelled placeholders so no one mistakes their numbers for estimates.
 */
export const PLACEHOLDER_TARGETS: Record<string, FindingTarget> = {
  placeholder: { model: PLACEHOLDER_COST_MODEL, tokenizer: 'o200k_base' },
  'placeholder-api': {
    tokenizer: 'o200k_base',
    model: linearCostModel({
      label: 'placeholder API model (1,024-token minimum, 128-token steps)',
      contextWindow: 128_000,
      cacheRule: { minTokens: 1024, granularity: 128 },
      baseMs: 300,
      msPerToken: 0.05,
      msPerCachedToken: 0.01,
      usdPerMillionInput: 2.5,
      usdPerMillionCached: 1.25,
    }),
  },
};

export const DEFAULT_FINDING_TARGET = 'placeholder';
