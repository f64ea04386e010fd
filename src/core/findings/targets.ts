import { targetLabel, targetTokenizer, type ResolvedTarget } from '../estimate';
import { cacheRuleOf, DEFAULT_BLOCK_TOKENS } from '../estimate/cacheRule';
import {
  coldScenario,
  scenarioFigures,
  servingLabel,
  workloadLabel,
  type Figures,
  type Workload,
} from '../estimate/scenarios';
import type { TokenizerId } from '../tokenize/types';
import type { FindingCostModel } from './costModel';

export interface FindingTarget {
  model: FindingCostModel;
  tokenizer: TokenizerId;
}

/** Estimates kept per finding target; an editor session's edits keep adding new prompt lengths. */
const MEMO_LIMIT = 10_000;

/**
 * The estimation engine as findings see it: TTFT and cost of a prompt with some tokens cached, in the workload the
 * editor's hover and status bar show (the same scenario function), so a finding's "cold 380 ms" is the hover's.
 */
export function findingTarget(
  target: ResolvedTarget,
  workload: Workload,
  blockTokens = DEFAULT_BLOCK_TOKENS,
): FindingTarget {
  // Every group member asks for its cold and warm TTFT and cost on every finding of the group (a
  // report of N files in one group asks N² times): one estimate per (input, cached) pair.
  const figures = new Map<string, Figures>();
  const at = (inputTokens: number, cachedTokens: number): Figures => {
    const key = `${inputTokens}:${cachedTokens}`;
    let f = figures.get(key);
    // Stryker disable next-line ConditionalExpression: a memo is not observable, figures computed again are equal.
    if (!f) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator: when the memo is emptied is not observable.
      if (figures.size >= MEMO_LIMIT) figures.clear();
      const input = Math.max(1, inputTokens);
      const cached = Math.min(cachedTokens, input - 1);
      const cold = coldScenario(workload, input);
      // Stryker disable next-line ConditionalExpression,EqualityOperator,StringLiteral: figures follow cachedTokens.
      f = scenarioFigures(target, cached > 0 ? { ...cold, cache: 'warm', cachedTokens: cached } : cold);
      figures.set(key, f);
    }
    return f;
  };
  return {
    tokenizer: targetTokenizer(target),
    model: {
      label: targetLabel(target),
      serving: servingLabel(target),
      scenario: workloadLabel(workload),
      contextWindow: target.kind === 'provider' ? target.provider.contextWindow : target.model.contextWindow,
      cacheRule: cacheRuleOf(target, blockTokens),
      ttftMs: (inputTokens, cachedTokens) => at(inputTokens, cachedTokens).ttftMs.p50,
      costUsd: (inputTokens, cachedTokens) => at(inputTokens, cachedTokens).costUsd,
    },
  };
}
