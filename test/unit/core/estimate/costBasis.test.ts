import assert from 'node:assert/strict';
import {
  appliedTtl,
  callCost,
  chargesWrites,
  estimateCost,
  isPeak,
  timeOfDayBasis,
  ttlBasis,
} from '../../../../src/core/estimate/cost';
import type { ProviderRow } from '../../../../src/core/estimate';
import { clone, provider } from './helpers';

/** A row of the built-in table with its caching and prices replaced, so each rule is tested on its own. */
function row(base: string, caching: Partial<ProviderRow['caching']>, prices: Partial<ProviderRow['prices']> = {}) {
  const r = clone(provider(base));
  return { ...r, caching: { ...r.caching, ...caching }, prices: { ...r.prices, ...prices } } as ProviderRow;
}

const utc = (iso: string) => new Date(`${iso}Z`);
const noon = utc('2026-12-01T12:00:00'); // a Tuesday

/** #23 item 1: the words beside every provider price (docs/estimates.md, Cost). */
describe('provider cost: the rule and basis behind each price', () => {
  const peak: NonNullable<ProviderRow['prices']['peak']> = {
    windowsUtc: [
      { from: '01:00', to: '04:30' },
      { from: '22:00', to: '02:00' },
    ],
    weekdaysOnly: true,
    inputPerM: 1,
    outputPerM: 2,
  };

  it('peak windows are [from, to) in UTC minutes, may wrap past midnight, and skip weekends when weekdays only', () => {
    const tue = (hhmm: string) => utc(`2026-12-01T${hhmm}:00`);
    assert.equal(isPeak(peak, tue('01:00')), true);
    assert.equal(isPeak(peak, tue('04:29')), true);
    assert.equal(isPeak(peak, tue('04:30')), false, 'the end minute is outside');
    assert.equal(isPeak(peak, tue('00:59')), true, 'inside the window that wraps past midnight');
    assert.equal(isPeak(peak, tue('21:59')), false);
    assert.equal(isPeak(peak, tue('22:00')), true);
    assert.equal(isPeak(peak, tue('12:00')), false);
    assert.equal(isPeak(peak, utc('2026-12-05T02:00:00')), false, 'Saturday');
    assert.equal(isPeak(peak, utc('2026-12-06T02:00:00')), false, 'Sunday');
    assert.equal(isPeak({ ...peak, weekdaysOnly: false }, utc('2026-12-06T02:00:00')), true);
  });

  it('the time-of-day line names the call time and the windows', () => {
    const r = row('deepseek/deepseek-v4-flash', {}, { peak });
    assert.equal(
      timeOfDayBasis(r, utc('2026-12-01T02:05:00')),
      'peak rates: Tue 02:05 UTC is inside the peak hours 01:00–04:30, 22:00–02:00 UTC (Mon–Fri)',
    );
    assert.equal(
      timeOfDayBasis({ ...r, prices: { ...r.prices, peak: { ...peak, weekdaysOnly: false } } }, noon),
      'off-peak rates: Tue 12:00 UTC is outside the peak hours 01:00–04:30, 22:00–02:00 UTC',
    );
    assert.equal(timeOfDayBasis(provider('openai/gpt-4o-mini'), noon), undefined);
    assert.deepEqual(estimateCost(r, { inputTokens: 10, cachedPrefixTokens: 0, outputTokens: 1, at: noon }).basis, [
      ttlBasis(r, '5m'),
      timeOfDayBasis(r, noon),
    ]);
  });

  it('who pays to write: explicit caching always, automatic only with a listed fee, none never', () => {
    const auto = { mode: 'automatic' as const, writePremium: undefined, extendedTtl: undefined };
    assert.equal(chargesWrites(row('openai/gpt-4o-mini', auto)), false);
    assert.equal(chargesWrites(row('openai/gpt-4o-mini', { ...auto, writePremium: 1.25 })), true);
    assert.equal(chargesWrites(row('openai/gpt-4o-mini', auto, { cacheWritePerM: 1 })), true);
    assert.equal(
      chargesWrites(row('anthropic/claude-opus-4.5', { writePremium: undefined }, { cacheWritePerM: undefined })),
      true,
    );
    assert.equal(chargesWrites(row('anthropic/claude-opus-4.5', { mode: 'none' })), false);
  });

  it('the TTL line: the applied TTL and write multiple, a refused 1h TTL said so, no caching said so', () => {
    const opus = provider('anthropic/claude-opus-4.5');
    assert.equal(ttlBasis(opus, '5m'), 'cache TTL 5m: writes at 1.25× input');
    assert.equal(ttlBasis(opus, '1h'), 'cache TTL 1h: writes at 2× input');
    assert.equal(appliedTtl(opus, '1h'), '1h');
    const noExtended = row(opus.id, { extendedTtl: undefined }, { cacheWrite1hPerM: undefined });
    assert.equal(appliedTtl(noExtended, '1h'), '5m');
    assert.equal(
      ttlBasis(noExtended, '1h'),
      `cache TTL 5m: writes at 1.25× input (the 1h TTL is not offered: ${opus.id} keeps its default)`,
    );
    // A listed 1h price alone offers the extended TTL; without its seconds the span is just "1h".
    const listed1h = row(opus.id, { extendedTtl: undefined }, { cacheWrite1hPerM: 10 });
    assert.equal(ttlBasis(listed1h, '1h'), 'cache TTL 1h: writes at 2× input');
    assert.equal(ttlBasis(row(opus.id, { ttlSeconds: undefined }), '5m'), 'cache TTL default: writes at 1.25× input');
    assert.equal(ttlBasis(row(opus.id, { ttlSeconds: 90 }), '5m'), 'cache TTL 90s: writes at 1.25× input');
    assert.equal(ttlBasis(row(opus.id, { ttlSeconds: 7200 }), '5m'), 'cache TTL 2h: writes at 1.25× input');
    assert.equal(ttlBasis(provider('openai/gpt-4o-mini'), '5m'), 'cache TTL 5m: no write fee');
    assert.equal(
      ttlBasis(row('openai/gpt-4o-mini', { writePremium: 1.25 }), '5m'),
      'cache TTL 5m: writes at 1.25× input (automatic caching)',
    );
    // Explicit caching without a listed price or premium writes at 1× the input rate.
    assert.equal(
      ttlBasis(row(opus.id, { writePremium: undefined }, { cacheWritePerM: undefined }), '5m'),
      'cache TTL 5m: writes at 1× input',
    );
    assert.equal(ttlBasis(row(opus.id, { mode: 'none' }), '5m'), 'no prompt caching');
  });

  it('each call says which published rule split its input', () => {
    const opus = provider('anthropic/claude-opus-4.5');
    const call = { inputTokens: 10_000, cachedPrefixTokens: 6000, outputTokens: 10, at: noon };
    assert.equal(callCost(opus, call, true).rule, 'cache read: 6000 tokens at the cached rate');
    assert.equal(callCost(opus, call, false).rule, 'cache write (5m TTL): 6000 tokens at the write rate');
    assert.equal(
      callCost(opus, { ...call, ttl: '1h' }, false).rule,
      'cache write (1h TTL): 6000 tokens at the write rate',
    );
    assert.equal(
      callCost(opus, { ...call, cachedPrefixTokens: 0 }, true).rule,
      'no shared prefix: all input at the input rate',
    );
    assert.equal(
      callCost(opus, { ...call, cachedPrefixTokens: 100 }, true).rule,
      'prefix below the 4096-token minimum: not cached',
    );
    assert.equal(
      callCost(row(opus.id, { mode: 'none' }), call, true).rule,
      'no prompt caching: all input at the input rate',
    );
    const mini = provider('openai/gpt-4o-mini');
    assert.equal(
      callCost(mini, call, true).rule,
      'automatic cache hit: 5888 tokens (in 128-token units) at the cached rate',
    );
    assert.equal(callCost(mini, call, false).rule, 'automatic caching: first call pays the input rate, no write fee');
    const cold = callCost(mini, call, false);
    assert.deepEqual([cold.inputTokens, cold.cachedTokens, cold.cacheWriteTokens], [10_000, 0, 0]);
  });

  it('a write costs the listed price, else the premium times the input rate in force', () => {
    const opus = provider('anthropic/claude-opus-4.5');
    const call = { inputTokens: 10_000, cachedPrefixTokens: 6000, outputTokens: 0, at: noon };
    assert.ok(Math.abs(callCost(opus, call, false).cacheWriteUsd - 6000 * opus.prices.cacheWritePerM! * 1e-6) < 1e-12);
    const premiumOnly = row(opus.id, { writePremium: 1.5 }, { cacheWritePerM: undefined });
    assert.ok(
      Math.abs(callCost(premiumOnly, call, false).cacheWriteUsd - 6000 * 1.5 * opus.prices.inputPerM * 1e-6) < 1e-12,
    );
    // A free input rate cannot give a multiple: the premium stands.
    const free = row(opus.id, { writePremium: 1.5 }, { inputPerM: 0, cacheWritePerM: 3 });
    assert.equal(ttlBasis(free, '5m'), 'cache TTL 5m: writes at 1.5× input');
  });
});
