import type { ProviderRow } from './schemas';
import { CACHE_TTLS } from './schemas';

export type CacheTtl = (typeof CACHE_TTLS)[number];

export interface CallTokens {
  inputTokens: number;
  /** Tokens at the start of the prompt shared with earlier calls (the cacheable prefix). */
  cachedPrefixTokens: number;
  outputTokens: number;
  /** Which TTL a cache write asks for: the provider's default ('5m') or its extended one ('1h'). */
  ttl?: CacheTtl;
  /** When the call is made: time-of-day rates (DeepSeek peak hours) depend on it. Default: now. */
  at?: Date;
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
  /** First call: nothing cached yet (a provider that charges for writes charges here). */
  cold: CallCost;
  /** A later call within the TTL that hits the cache. */
  warm: CallCost;
  /** 1,000 calls sharing the prefix within the TTL: one cold call, then 999 warm ones. */
  per1kCallsUsd: number;
  /** What the prices assume, one line each: the cache TTL and write fee, the time-of-day period. */
  basis: string[];
}

type Rates = Omit<ProviderRow['prices'], 'longContext' | 'peak'>;

const PER_M = 1e-6;

/**
 * Rates in force. Above a long-context threshold the whole request is billed at the long-context
 * rates; otherwise, inside a peak window, at the peak rates.
 */
function ratesFor(provider: ProviderRow, inputTokens: number, at: Date): Rates {
  const long = provider.prices.longContext;
  if (long && inputTokens > long.aboveInputTokens) return long;
  const peak = provider.prices.peak;
  return peak && isPeak(peak, at) ? peak : provider.prices;
}

type Peak = NonNullable<ProviderRow['prices']['peak']>;

function minutesOf(hhmm: string): number {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
}

/** Whether `at` falls in one of the peak windows (UTC, [from, to), wrapping past midnight). */
export function isPeak(peak: Peak, at: Date): boolean {
  const day = at.getUTCDay();
  if (peak.weekdaysOnly && (day === 0 || day === 6)) return false;
  const minute = at.getUTCHours() * 60 + at.getUTCMinutes();
  return peak.windowsUtc.some(({ from, to }) => {
    const start = minutesOf(from);
    const end = minutesOf(to);
    return start < end ? minute >= start && minute < end : minute >= start || minute < end;
  });
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** "peak: Tue 09:00 UTC is inside 01:00–04:00, 06:00–10:00 UTC (Mon–Fri)" */
export function timeOfDayBasis(provider: ProviderRow, at: Date): string | undefined {
  const peak = provider.prices.peak;
  if (!peak) return undefined;
  const when = `${WEEKDAYS[at.getUTCDay()]} ${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')} UTC`;
  const windows = `${peak.windowsUtc.map((w) => `${w.from}–${w.to}`).join(', ')} UTC${peak.weekdaysOnly ? ' (Mon–Fri)' : ''}`;
  return isPeak(peak, at)
    ? `peak rates: ${when} is inside the peak hours ${windows}`
    : `off-peak rates: ${when} is outside the peak hours ${windows}`;
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

/**
 * Whether the first call pays to write the cache: explicit caching always does, automatic caching
 * only where the row lists a write fee.
 */
export function chargesWrites(provider: ProviderRow): boolean {
  const { mode, writePremium } = provider.caching;
  if (mode === 'none') return false;
  return mode === 'explicit' || writePremium !== undefined || provider.prices.cacheWritePerM !== undefined;
}

/** The TTL a write gets: the extended one only where the provider offers it. */
export function appliedTtl(provider: ProviderRow, ttl: CacheTtl): CacheTtl {
  return ttl === '1h' && offersExtendedTtl(provider) ? '1h' : '5m';
}

function offersExtendedTtl(provider: ProviderRow): boolean {
  return provider.caching.extendedTtl !== undefined || provider.prices.cacheWrite1hPerM !== undefined;
}

/** One line saying which TTL the prices assume and what a write costs, e.g. "cache TTL 1h: writes at 2× input". */
export function ttlBasis(provider: ProviderRow, ttl: CacheTtl): string {
  const { caching } = provider;
  if (caching.mode === 'none') return 'no prompt caching';
  const applied = appliedTtl(provider, ttl);
  const seconds = applied === '1h' ? caching.extendedTtl?.ttlSeconds : caching.ttlSeconds;
  const span = seconds === undefined ? (applied === '1h' ? '1h' : 'default') : formatSeconds(seconds);
  const premium = chargesWrites(provider) ? writeMultiple(provider, provider.prices, applied) : undefined;
  const fee =
    premium === undefined
      ? 'no write fee'
      : `writes at ${Number(premium.toFixed(4))}× input${caching.mode === 'automatic' ? ' (automatic caching)' : ''}`;
  const refused = ttl !== applied ? ` (the ${ttl} TTL is not offered: ${provider.id} keeps its default)` : '';
  return `cache TTL ${span}: ${fee}${refused}`;
}

function formatSeconds(seconds: number): string {
  if (seconds % 3600 === 0) return `${seconds / 3600}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

export function estimateCost(provider: ProviderRow, call: CallTokens): CostEstimate {
  const at = call.at ?? new Date();
  const timed = { ...call, at };
  const cold = callCost(provider, timed, false);
  const warm = callCost(provider, timed, true);
  const timeOfDay = timeOfDayBasis(provider, at);
  return {
    cold,
    warm,
    per1kCallsUsd: cold.totalUsd + 999 * warm.totalUsd,
    basis: [ttlBasis(provider, call.ttl ?? '5m'), ...(timeOfDay ? [timeOfDay] : [])],
  };
}

export function callCost(provider: ProviderRow, call: CallTokens, warm: boolean): CallCost {
  const rates = ratesFor(provider, call.inputTokens, call.at ?? new Date());
  const cacheable = cacheableTokens(provider, call.cachedPrefixTokens, call.inputTokens);
  const mode = provider.caching.mode;
  const ttl = appliedTtl(provider, call.ttl ?? '5m');
  let cachedTokens = 0;
  let cacheWriteTokens = 0;
  let rule: string;
  if (cacheable === 0) {
    rule =
      mode === 'none'
        ? 'no prompt caching: all input at the input rate'
        : call.cachedPrefixTokens <= 0
          ? 'no shared prefix: all input at the input rate'
          : `prefix below the ${provider.caching.minTokens}-token minimum: not cached`;
  } else if (warm) {
    cachedTokens = cacheable;
    rule =
      mode === 'explicit'
        ? `cache read: ${cacheable} tokens at the cached rate`
        : `automatic cache hit: ${cacheable} tokens (in ${provider.caching.granularity}-token units) at the cached rate`;
  } else if (chargesWrites(provider)) {
    cacheWriteTokens = cacheable;
    rule = `cache write (${ttl} TTL): ${cacheable} tokens at the write rate`;
  } else {
    rule = 'automatic caching: first call pays the input rate, no write fee';
  }
  const inputTokens = call.inputTokens - cachedTokens - cacheWriteTokens;
  const inputUsd = inputTokens * rates.inputPerM * PER_M;
  const cachedUsd = cachedTokens * (rates.cachedInputPerM ?? rates.inputPerM) * PER_M;
  const cacheWriteUsd = cacheWriteTokens * writeRate(provider, rates, ttl) * PER_M;
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

/** Write price per 1M tokens: the listed one, else the documented multiple of the input rate in force. */
function writeRate(provider: ProviderRow, rates: Rates, ttl: CacheTtl): number {
  const listed = ttl === '1h' ? rates.cacheWrite1hPerM : rates.cacheWritePerM;
  return listed ?? rates.inputPerM * (writeMultiple(provider, rates, ttl) ?? 1);
}

/**
 * Write price as a multiple of the input rate in force: the listed write price, else the row's
 * documented multiple (Anthropic 1.25× for 5 min, 2× for 1 h; OpenAI's newer models 1.25×).
 */
function writeMultiple(provider: ProviderRow, rates: Rates, ttl: CacheTtl): number | undefined {
  const listed = ttl === '1h' ? rates.cacheWrite1hPerM : rates.cacheWritePerM;
  if (listed !== undefined && rates.inputPerM > 0) return listed / rates.inputPerM;
  const premium = ttl === '1h' ? provider.caching.extendedTtl?.writePremium : provider.caching.writePremium;
  return premium ?? (provider.caching.mode === 'explicit' ? 1 : undefined);
}
