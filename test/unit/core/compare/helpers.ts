import type { CompareRow } from '../../../../src/core/compare';
import type { PromptTokens } from '../../../../src/core/count';

/** A row with round numbers; tests override what they exercise. */
export function row(overrides: Partial<CompareRow> & { target: string }): CompareRow {
  return {
    kind: 'provider',
    serving: 'test API · client side',
    inputTokens: 1000,
    tokensExact: true,
    cachedTokens: 0,
    ttftMs: { p50: 100, p99: 200 },
    coldTtftMs: { p50: 100, p99: 200 },
    tpotMs: 10,
    e2eMs: 2660,
    meetsSlo: true,
    failing: [],
    verdict: 'meets',
    coldMeetsSlo: true,
    costPer1kCallsUsd: 1,
    costPerMOutputUsd: 4,
    throughputTokPerS: 100,
    prefillBound: null,
    decodeBound: null,
    calibrated: false,
    latencyBasis: 'measured',
    notes: [],
    ...overrides,
  };
}

/** Every tokenizer counts the prompt as `tokens`. */
export const fixedTokens = (tokens: number) => (): PromptTokens => ({ tokens, tokenizer: 'fixed', exact: true });
