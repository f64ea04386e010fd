import type { ProviderRow } from './schemas';

export type CacheTtl = '5m' | '1h';

export interface CallTokens {
  inputTokens: number;
  /** Tokens at the start of the prompt shared with earlier calls (the cacheable prefix). */
  cachedPrefixTokens: number;
  outputTokens: number;
  /** Anthropic explicit caching: which TTL the breakpoint asks for. */
  ttl?: CacheTtl;
}

export interface CallCost {
  /** Tokens billed at each rate. */
  inputTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  inputUsd: number;
  cachedUsd: number;
  cacheWriteUsd: number;
  outputUsd: number;
  totalUsd: number;
  /** Which published rule produced the split, in words. */
  rule: string;
}

export interface CostEstimate {
  /** First call: nothing cached yet (explicit caching pays the write here). */
  cold: CallCost;
  /** A later call within the TTL that hits the cache. */
  warm: CallCost;
  /** 1,000 calls sharing the prefix within the TTL: one cold call, then 999 warm ones. */
  per1kCallsUsd: number;
}

const PER_M = 1e-6;

/** Rates in force: above a long-context threshold the whole request is billed at the long-context rates. */
function ratesFor(provider: ProviderRow, inputTokens: number) {
  const long = provider.prices.longContext;
  return long && inputTokens > long.aboveInputTokens ? long : provider.prices;
}

/**
 * Tokens a cache hit covers. Automatic caches (OpenAI: ≥1024 tokens in 128-token steps; DeepSeek: 64-token units)
 * match whole units of the shared prefix; a prefix below the minimum is not cached at all.
 */
export function cacheableTokens(provider: ProviderRow, cachedPrefixTokens: number, inputTokens: number): number {
  const { mode, minTokens, granularity } = provider.caching;
  const prefix = Math.min(cachedPrefixTokens, inputTokens);
  if (mode === 'none' || prefix < Math.max(minTokens, 1)) return 0;
  return Math.floor(prefix / granularity) * granularity;
}

export function estimateCost(provider: ProviderRow, call: CallTokens): CostEstimate {
  const cold = callCost(provider, call, false);
  const warm = callCost(provider, call, true);
  return { cold, warm, per1kCallsUsd: cold.totalUsd + 999 * warm.totalUsd };
}

export function callCost(provider: ProviderRow, call: CallTokens, warm: boolean): CallCost {
  const rates = ratesFor(provider, call.inputTokens);
  const cacheable = cacheableTokens(provider, call.cachedPrefixTokens, call.inputTokens);
  const mode = provider.caching.mode;
  let cachedTokens = 0;
  let cacheWriteTokens = 0;
  let rule: string;
  if (cacheable === 0) {
    rule =
      mode === 'none'
        ? 'no prompt caching: all input at the input rate'
        : `prefix below the ${provider.caching.minTokens}-token minimum: not cached`;
  } else if (mode === 'explicit') {
    if (warm) cachedTokens = cacheable;
    else cacheWriteTokens = cacheable;
    rule = warm
      ? `cache read: ${cacheable} tokens at the cached rate`
      : `cache write (${call.ttl ?? '5m'} TTL): ${cacheable} tokens at the write rate`;
  } else {
    if (warm) cachedTokens = cacheable;
    rule = warm
      ? `automatic cache hit: ${cacheable} tokens (in ${provider.caching.granularity}-token units) at the cached rate`
      : 'automatic caching: first call pays the input rate, no write fee';
  }
  const inputTokens = call.inputTokens - cachedTokens - cacheWriteTokens;
  const inputUsd = inputTokens * rates.inputPerM * PER_M;
  const cachedUsd = cachedTokens * (rates.cachedInputPerM ?? rates.inputPerM) * PER_M;
  const cacheWriteUsd = cacheWriteTokens * writeRate(provider, rates, call.ttl ?? '5m') * PER_M;
  const outputUsd = call.outputTokens * rates.outputPerM * PER_M;
  return {
    inputTokens,
    cachedTokens,
    cacheWriteTokens,
    outputTokens: call.outputTokens,
    inputUsd,
    cachedUsd,
    cacheWriteUsd,
    outputUsd,
    totalUsd: inputUsd + cachedUsd + cacheWriteUsd + outputUsd,
    rule,
  };
}

/** Listed write price, else the documented multiple of base input (Anthropic: 1.25× for 5 min, 2× for 1 h). */
function writeRate(
  provider: ProviderRow,
  rates: ProviderRow['prices'] | NonNullable<ProviderRow['prices']['longContext']>,
  ttl: CacheTtl,
): number {
  if (ttl === '1h') return rates.cacheWrite1hPerM ?? rates.inputPerM * 2;
  return rates.cacheWritePerM ?? rates.inputPerM * (provider.caching.writePremium ?? 1);
}
