import assert from 'node:assert/strict';
import { callCost, estimateCost, type CallCost } from '../../../../src/core/estimate';
import { clone, provider } from './helpers';

/** Dollars from tokens and $/1M prices written out, not computed by the code under test. */
const usd = (tokens: number, perM: number) => (tokens * perM) / 1e6;
const near = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);
const split = (c: CallCost) => [c.inputTokens, c.cachedTokens, c.cacheWriteTokens, c.outputTokens];

describe('provider cost rules', () => {
  it('OpenAI: automatic caching from 1,024 tokens in 128-token steps, no write fee, gpt-4o reads at 50%', () => {
    const p = provider('openai/gpt-4o');
    assert.equal(p.prices.cachedInputPerM, p.prices.inputPerM / 2);
    const call = { inputTokens: 3000, cachedPrefixTokens: 2000, outputTokens: 100 };
    const cold = callCost(p, call, false);
    assert.deepEqual(split(cold), [3000, 0, 0, 100]);
    near(cold.totalUsd, usd(3000, 2.5) + usd(100, 10));
    const warm = callCost(p, call, true);
    assert.deepEqual(split(warm), [3000 - 1920, 1920, 0, 100]); // 15 × 128 = 1920 ≤ 2000
    near(warm.totalUsd, usd(1080, 2.5) + usd(1920, 1.25) + usd(100, 10));
  });

  it('OpenAI: a 1,023-token prefix is not cached; exactly 1,024 is', () => {
    const p = provider('openai/gpt-4.1');
    assert.equal(callCost(p, { inputTokens: 5000, cachedPrefixTokens: 1023, outputTokens: 0 }, true).cachedTokens, 0);
    assert.equal(
      callCost(p, { inputTokens: 5000, cachedPrefixTokens: 1024, outputTokens: 0 }, true).cachedTokens,
      1024,
    );
    assert.equal(
      callCost(p, { inputTokens: 5000, cachedPrefixTokens: 1151, outputTokens: 0 }, true).cachedTokens,
      1024,
    );
    assert.equal(
      callCost(p, { inputTokens: 5000, cachedPrefixTokens: 1152, outputTokens: 0 }, true).cachedTokens,
      1152,
    );
  });

  it('Anthropic: cold call writes the prefix at 1.25× (5-min TTL), warm reads it at 0.1×', () => {
    const p = provider('anthropic/claude-sonnet-4.5');
    assert.equal(p.prices.cacheWritePerM, 1.25 * p.prices.inputPerM);
    near(p.prices.cachedInputPerM!, 0.1 * p.prices.inputPerM);
    const call = { inputTokens: 5000, cachedPrefixTokens: 4000, outputTokens: 200 };
    const cold = callCost(p, call, false);
    assert.deepEqual(split(cold), [1000, 0, 4000, 200]);
    near(cold.totalUsd, usd(4000, 3.75) + usd(1000, 3) + usd(200, 15));
    const warm = callCost(p, call, true);
    assert.deepEqual(split(warm), [1000, 4000, 0, 200]);
    near(warm.totalUsd, usd(4000, 0.3) + usd(1000, 3) + usd(200, 15));
  });

  it('Anthropic: the 1-hour TTL writes at 2×', () => {
    const p = provider('anthropic/claude-sonnet-4.6');
    const cold = callCost(p, { inputTokens: 5000, cachedPrefixTokens: 4000, outputTokens: 0, ttl: '1h' }, false);
    near(cold.cacheWriteUsd, usd(4000, 6));
    assert.equal(p.prices.cacheWrite1hPerM, 2 * p.prices.inputPerM);
  });

  it('Anthropic: a prefix below the model minimum (4,096 for Haiku 4.5) is neither written nor read', () => {
    const p = provider('anthropic/claude-haiku-4.5');
    for (const warm of [false, true]) {
      const c = callCost(p, { inputTokens: 5000, cachedPrefixTokens: 4095, outputTokens: 10 }, warm);
      assert.deepEqual(split(c), [5000, 0, 0, 10]);
      assert.match(c.rule, /4096-token minimum/);
    }
    assert.equal(
      callCost(p, { inputTokens: 5000, cachedPrefixTokens: 4096, outputTokens: 10 }, false).cacheWriteTokens,
      4096,
    );
  });

  it('Anthropic and Google: above 200k input tokens the whole request uses the long-context rates', () => {
    const sonnet = callCost(
      provider('anthropic/claude-sonnet-4.5'),
      { inputTokens: 250_000, cachedPrefixTokens: 200_000, outputTokens: 1000 },
      true,
    );
    near(sonnet.totalUsd, usd(200_000, 0.6) + usd(50_000, 6) + usd(1000, 22.5));
    const gemini = callCost(
      provider('google/gemini-2.5-pro'),
      { inputTokens: 200_001, cachedPrefixTokens: 0, outputTokens: 1000 },
      false,
    );
    near(gemini.totalUsd, usd(200_001, 2.5) + usd(1000, 15));
    const short = callCost(
      provider('google/gemini-2.5-pro'),
      { inputTokens: 200_000, cachedPrefixTokens: 0, outputTokens: 1000 },
      false,
    );
    near(short.totalUsd, usd(200_000, 1.25) + usd(1000, 10));
  });

  it('Google: implicit caching reads at 10% from the model minimum (2,048 for 2.5 Flash since 2026-10), no write fee', () => {
    const p = provider('google/gemini-2.5-flash');
    assert.equal(callCost(p, { inputTokens: 3000, cachedPrefixTokens: 2047, outputTokens: 50 }, true).cachedTokens, 0);
    const warm = callCost(p, { inputTokens: 3000, cachedPrefixTokens: 2048, outputTokens: 50 }, true);
    assert.deepEqual(split(warm), [952, 2048, 0, 50]);
    near(warm.totalUsd, usd(952, 0.3) + usd(2048, 0.03) + usd(50, 2.5));
    assert.equal(
      callCost(p, { inputTokens: 3000, cachedPrefixTokens: 2048, outputTokens: 50 }, false).cacheWriteUsd,
      0,
    );
  });

  it('OpenAI GPT-6 Sol: automatic caching with a 1.25× write fee on the first call', () => {
    const p = provider('openai/gpt-6-sol');
    const call = { inputTokens: 3000, cachedPrefixTokens: 2000, outputTokens: 100 };
    const cold = callCost(p, call, false);
    assert.deepEqual(split(cold), [3000 - 1920, 0, 1920, 100]);
    near(cold.totalUsd, usd(1080, 2) + usd(1920, 2.5) + usd(100, 10));
    const warm = callCost(p, call, true);
    assert.deepEqual(split(warm), [1080, 1920, 0, 100]);
    near(warm.totalUsd, usd(1080, 2) + usd(1920, 0.2) + usd(100, 10));
    // More than 272K input: the whole request at 2× input and write, 1.5× output.
    const long = callCost(p, { inputTokens: 272_001, cachedPrefixTokens: 0, outputTokens: 1000 }, false);
    near(long.totalUsd, usd(272_001, 4) + usd(1000, 15));
  });

  it('a 1-hour TTL asked of a provider without one keeps its default TTL and says so', () => {
    const p = provider('openai/gpt-6-sol');
    const call = { inputTokens: 3000, cachedPrefixTokens: 2048, outputTokens: 0 };
    near(callCost(p, { ...call, ttl: '1h' }, false).cacheWriteUsd, callCost(p, call, false).cacheWriteUsd);
    assert.match(estimateCost(p, { ...call, ttl: '1h' }).basis[0] ?? '', /1h TTL is not offered/);
    assert.match(
      estimateCost(provider('anthropic/claude-sonnet-4.6'), { ...call, ttl: '1h' }).basis[0] ?? '',
      /1h: writes at 2× input/,
    );
  });

  it('DeepSeek: automatic cache in 64-token units, no write fee', () => {
    const p = provider('deepseek/deepseek-flash');
    const offPeak = new Date('2026-12-01T12:00:00Z'); // a Tuesday, outside 01-04 and 06-10 UTC
    const warm = callCost(p, { inputTokens: 1500, cachedPrefixTokens: 1000, outputTokens: 100, at: offPeak }, true);
    assert.deepEqual(split(warm), [540, 960, 0, 100]);
    near(warm.totalUsd, usd(540, 0.15) + usd(960, 0.003) + usd(100, 0.6));
  });

  it('DeepSeek: weekday peak hours (01:00–04:00, 06:00–10:00 UTC) bill twice the off-peak rates', () => {
    const p = provider('deepseek/deepseek-flash');
    const call = { inputTokens: 1000, cachedPrefixTokens: 0, outputTokens: 1000 };
    const at = (iso: string) => callCost(p, { ...call, at: new Date(iso) }, false).totalUsd;
    const offPeak = usd(1000, 0.15) + usd(1000, 0.6);
    const peak = usd(1000, 0.3) + usd(1000, 1.2);
    near(at('2026-12-01T00:59:00Z'), offPeak);
    near(at('2026-12-01T01:00:00Z'), peak);
    near(at('2026-12-01T03:59:00Z'), peak);
    near(at('2026-12-01T04:00:00Z'), offPeak);
    near(at('2026-12-01T09:30:00Z'), peak);
    near(at('2026-12-01T10:00:00Z'), offPeak);
    near(at('2026-12-05T09:30:00Z'), offPeak); // Saturday
    const e = estimateCost(p, { ...call, at: new Date('2026-12-01T09:00:00Z') });
    assert.match(
      e.basis.join('\n'),
      /peak rates: Tue 09:00 UTC is inside the peak hours 01:00–04:00, 06:00–10:00 UTC \(Mon–Fri\)/,
    );
  });

  it('providers without prompt caching bill every input token at the input rate', () => {
    const p = provider('together/llama-3.3-70b');
    const warm = callCost(p, { inputTokens: 9000, cachedPrefixTokens: 8000, outputTokens: 100 }, true);
    assert.deepEqual(split(warm), [9000, 0, 0, 100]);
    near(warm.totalUsd, usd(9000, 0.88) + usd(100, 0.88));
  });

  it('a user row with a write premium but no listed write price charges premium × input', () => {
    const p = clone(provider('anthropic/claude-sonnet-4.6'));
    delete p.prices.cacheWritePerM;
    p.caching.writePremium = 1.5;
    near(
      callCost(p, { inputTokens: 2000, cachedPrefixTokens: 2000, outputTokens: 0 }, false).cacheWriteUsd,
      usd(2000, 4.5),
    );
  });

  it('1,000 calls = one cold call + 999 warm ones', () => {
    const p = provider('anthropic/claude-opus-4.6');
    const call = { inputTokens: 10_000, cachedPrefixTokens: 9000, outputTokens: 500 };
    const e = estimateCost(p, call);
    near(e.per1kCallsUsd, callCost(p, call, false).totalUsd + 999 * callCost(p, call, true).totalUsd);
    assert.ok(e.warm.totalUsd < e.cold.totalUsd);
  });
});
