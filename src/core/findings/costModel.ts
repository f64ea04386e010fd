import type { CacheRule } from '../estimate/cacheRule';

export { cacheableTokens, type CacheRule } from '../estimate/cacheRule';

/**
 * What findings need from the estimation engine, injected so findings can be computed and tested
 * without it: `findingTarget()` (targets.ts) adapts the engine; `linearCostModel` is a simple,
 * hand-checkable model for tests.
 */
export interface FindingCostModel {
  /** Shown in messages, e.g. "llama-3.1-70b · 4×h100-sxm". */
  label: string;
  /** The serving stack and measurement scope the figures assume (servingLabel). */
  serving: string;
  /**
   * The workload the figures assume, said in messages next to them ("8 concurrent requests, 256 output tokens");
   * each message says cold or warm itself.
   */
  scenario: string;
  contextWindow?: number;
  /** Undefined: the target has no prefix cache. */
  cacheRule: CacheRule | undefined;
  ttftMs(inputTokens: number, cachedTokens: number): number;
  /** null when the target has no price (self-hosted hardware used for latency only). */
  costUsd(inputTokens: number, cachedTokens: number): number | null;
}

export interface LinearCostParams {
  label: string;
  scenario?: string;
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
    serving: 'linear test model',
    scenario: p.scenario ?? '1 request at a time, 0 output tokens',
    ...(p.contextWindow === undefined ? {} : { contextWindow: p.contextWindow }),
    cacheRule: p.cacheRule,
    ttftMs: (input, cached) => p.baseMs + (input - cached) * p.msPerToken + cached * p.msPerCachedToken,
    costUsd: (input, cached) => ((input - cached) * p.usdPerMillionInput + cached * p.usdPerMillionCached) / 1e6,
  };
}
