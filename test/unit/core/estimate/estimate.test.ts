import assert from 'node:assert/strict';
import { estimate, type Range } from '../../../../src/core/estimate';
import { replicaTimePerCall, selfHostedCallUsd } from '../../../../src/core/estimate/selfHostedCost';
import { target } from './helpers';

const ordered = (r: Range) => assert.ok(r.low <= r.p50 && r.p50 <= r.high, JSON.stringify(r));

describe('estimate', () => {
  it('every latency carries a low–high range around p50', () => {
    for (const id of ['llama-3.1-8b@l4', 'mixtral-8x7b@2xa100-80gb', 'openai/gpt-4o', 'gpt-oss-120b@h100-sxm']) {
      const e = estimate(target(id), { inputTokens: 3000, cachedTokens: 1000, outputTokens: 100, concurrency: 4 });
      for (const r of [e.ttftMs, e.coldTtftMs, e.tpotMs, e.e2eMs]) ordered(r);
      assert.ok(e.ttftMs.high > e.ttftMs.low, id);
    }
  });

  it('shows warm and cold side by side: cached tokens cut TTFT and cost', () => {
    const self = estimate(target('llama-3.1-70b@4xh100-sxm:fp8'), { inputTokens: 20_000, cachedTokens: 18_000 });
    assert.ok(self.ttftMs.p50 < self.coldTtftMs.p50);
    assert.ok(self.prefillFlops!.total < self.coldPrefillFlops!.total);
    const api = estimate(target('openai/gpt-4.1'), { inputTokens: 20_000, cachedTokens: 18_000 });
    assert.ok(api.ttftMs.p50 < api.coldTtftMs.p50);
    assert.ok(api.costUsd! < api.providerCost!.cold.totalUsd);
  });

  it('a prefix below the provider minimum is timed and billed as cold, with a note', () => {
    const e = estimate(target('openai/gpt-4o'), { inputTokens: 2000, cachedTokens: 1000 });
    assert.equal(e.ttftMs.p50, e.coldTtftMs.p50);
    assert.equal(e.costUsd, e.providerCost!.cold.totalUsd);
    assert.match(e.notes.join('\n'), /below openai\/gpt-4o's 1024-token minimum/);
  });

  it('E2E = TTFT + TPOT × output tokens', () => {
    const e = estimate(target('qwen3-32b@h100-sxm'), { inputTokens: 1000, outputTokens: 300 });
    assert.ok(Math.abs(e.e2eMs.p50 - (e.ttftMs.p50 + 300 * e.tpotMs.p50)) < 1e-9);
  });

  it('concurrency: simultaneous compute-bound prefills queue, so p99 > p50 and both grow with C', () => {
    const at = (c: number) =>
      estimate(target('llama-3.1-70b@4xh100-sxm'), { inputTokens: 8000, concurrency: c }).concurrencyTtftMs;
    const one = at(1);
    const many = at(16);
    assert.equal(one.p50, one.p99);
    assert.ok(many.p50 > 4 * one.p50 && many.p99 > many.p50);
  });

  it('a calibrated profile overrides the modelled latency for its target', () => {
    const calibration = {
      ttftBaseMs: 100,
      msPerInputToken: 0.5,
      msPerInputToken2: 1e-5,
      tpotMs: 20,
      date: '2026-11-01',
    };
    const e = estimate(target('llama-3.1-8b@h100-sxm'), { inputTokens: 1000, cachedTokens: 0, calibration });
    assert.equal(e.calibrated, true);
    assert.equal(e.ttftMs.p50, 100 + 0.5 * 1000 + 1e-5 * 1000 * 1000);
    assert.equal(e.tpotMs.p50, 20);
    const api = estimate(target('openai/gpt-4o'), { inputTokens: 2000, calibration });
    assert.equal(api.ttftMs.p50, 100 + 0.5 * 2000 + 1e-5 * 2000 * 2000);
  });

  it('flags weights that do not fit (a note) and a prompt over the context window (an error)', () => {
    const e = estimate(target('llama-3.1-405b@h100-sxm:fp8'), { inputTokens: 200_000 });
    assert.match(e.notes.join('\n'), /do not fit/);
    assert.deepEqual(e.errors, [
      "prompt of 200,000 tokens exceeds llama-3.1-405b@h100-sxm:fp8+vllm's 131,072-token context window by 68,928",
    ]);
    assert.deepEqual(estimate(target('llama-3.1-405b@h100-sxm:fp8'), { inputTokens: 131_072 }).errors, []);
  });

  it('a retired provider model is an error naming its successor; its window still applies', () => {
    const e = estimate(target('anthropic/claude-sonnet-4.5'), { inputTokens: 200_001 });
    assert.equal(e.errors.length, 2);
    assert.match(
      e.errors[0] ?? '',
      /^anthropic\/claude-sonnet-4\.5 was retired on 2026-11-30: requests to it fail; use anthropic\/claude-sonnet-5\.5 instead/,
    );
    assert.match(
      e.errors[1] ?? '',
      /200,001 tokens exceeds anthropic\/claude-sonnet-4\.5's 200,000-token context window by 1$/,
    );
    assert.deepEqual(estimate(target('anthropic/claude-sonnet-4.6'), { inputTokens: 200_001 }).errors, []);
  });

  it('self-hosted $/call is the replica time the call accounts for at its batch, as Compare charges it', () => {
    const t = target('llama-3.1-8b@h100-sxm');
    const one = estimate(t, { inputTokens: 1000, concurrency: 1 });
    const eight = estimate(t, { inputTokens: 1000, concurrency: 8 });
    assert.ok(eight.costUsd! < one.costUsd! / 4, `${eight.costUsd} vs ${one.costUsd}`);
    // Alone, a call holds the GPU for its prefill and decode: its end-to-end time less the fixed
    // per-request overhead (CPU time, not charged).
    const e2eUsd = (3.99 * one.e2eMs.p50) / 3_600_000;
    assert.ok(one.costUsd! < e2eUsd && one.costUsd! > 0.8 * e2eUsd, `${one.costUsd} vs ${e2eUsd}`);
    for (const e of [one, eight]) {
      const time = replicaTimePerCall(e.prefill!, e.tpotMs.p50, e.outputTokens, e.concurrency);
      assert.ok(Math.abs(e.costUsd! - selfHostedCallUsd(time.totalMs, 1, 3.99)) < 1e-15);
    }
  });

  it('self-hosted $ per 1,000 calls with a cached prefix: one cold call fills the cache, 999 are warm', () => {
    const t = target('llama-3.1-70b@4xh100-sxm:fp8');
    const cold = estimate(t, { inputTokens: 8000, concurrency: 8 });
    const warm = estimate(t, { inputTokens: 8000, cachedTokens: 6400, concurrency: 8 });
    assert.ok(warm.costUsd! < cold.costUsd!);
    assert.ok(Math.abs(warm.costPer1kCallsUsd! - (cold.costUsd! + 999 * warm.costUsd!)) < 1e-12);
    assert.ok(Math.abs(cold.costPer1kCallsUsd! - 1000 * cold.costUsd!) < 1e-12);
  });
});
