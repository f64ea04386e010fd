import assert from 'node:assert/strict';
import {
  evaluateTarget,
  replicaTimePerCall,
  replicaTokensPerSecond,
  resolveProfile,
  selfHostedCallUsd,
} from '../../../../src/core/compare';
import { loadTables, resolveTarget, parseTargetId } from '../../../../src/core/estimate';
import { builtin, clone } from '../estimate/helpers';
import { fixedTokens } from './helpers';

describe('compare: self-hosted cost at the profile’s batch', () => {
  it('compute-bound prefill: each call pays its own compute; decode steps are shared by the batch', () => {
    // batch 8: max(8 × 10, 40) ÷ 8 + 1 = 11 ms of prefill; 100 tokens × 20 ms ÷ 8 = 250 ms of decode.
    const t = replicaTimePerCall({ computeMs: 10, memoryMs: 40, commMs: 1 }, 20, 100, 8);
    assert.deepEqual(t, { prefillMs: 11, decodeMs: 250, totalMs: 261 });
    // 4 GPUs × $3/h × 261 ms = 12 × 261 ÷ 3,600,000 = $0.00087.
    assert.ok(Math.abs(selfHostedCallUsd(t.totalMs, 4, 3) - 0.00087) < 1e-12);
    // 100 tokens in 261 ms of replica time: 383.1 tokens/s.
    assert.ok(Math.abs(replicaTokensPerSecond(t, 100) - 100_000 / 261) < 1e-9);
  });

  it('memory-bound prefill: the weight read is shared by the wave', () => {
    // batch 8: max(8 × 2, 40) ÷ 8 + 1 = 6 ms; batch 1: max(2, 40) + 1 = 41 ms.
    assert.equal(replicaTimePerCall({ computeMs: 2, memoryMs: 40, commMs: 1 }, 20, 100, 8).prefillMs, 6);
    assert.equal(replicaTimePerCall({ computeMs: 2, memoryMs: 40, commMs: 1 }, 20, 100, 1).prefillMs, 41);
  });

  const interactive = resolveProfile({ profile: 'interactive' });
  const ctx = { profile: interactive, cachedTokens: 0, countTokens: fixedTokens(2000) };

  it('a row’s cost scales with the hardware row’s $/hour and with the GPU count’s share', () => {
    const base = evaluateTarget(resolveTarget(parseTargetId('llama-3.1-70b@4xh100-sxm:fp8'), builtin), ctx).row;
    const h100 = clone(builtin.hardware.get('h100-sxm'));
    assert.ok(base && h100);
    const { tables } = loadTables([
      {
        name: 'test',
        data: { hardware: [{ ...h100, usdPerHour: { ...h100.usdPerHour!, value: h100.usdPerHour!.value * 2 } }] },
      },
    ]);
    const doubled = evaluateTarget(resolveTarget(parseTargetId('llama-3.1-70b@4xh100-sxm:fp8'), tables), ctx).row;
    assert.ok(doubled);
    assert.ok(Math.abs(doubled.costPer1kCallsUsd / base.costPer1kCallsUsd - 2) < 1e-9);
    assert.equal(base.deployment?.usdPerGpuHour, 3.99);
    // $ per million output tokens is the whole call over its output tokens.
    assert.ok(
      Math.abs(base.costPerMOutputUsd - (base.costPer1kCallsUsd / (1000 * interactive.outputTokens)) * 1e6) < 1e-9,
    );
  });

  it('a cached prefix makes 999 of 1,000 calls cheaper', () => {
    const id = parseTargetId('llama-3.1-70b@4xh100-sxm:fp8');
    const cold = evaluateTarget(resolveTarget(id, builtin), ctx).row;
    const warm = evaluateTarget(resolveTarget(id, builtin), { ...ctx, cachedTokens: 1900 }).row;
    assert.ok(cold && warm);
    assert.ok(warm.costPer1kCallsUsd < cold.costPer1kCallsUsd);
    // vLLM's prefix cache reuses whole 16-token KV blocks: 118 of them.
    assert.equal(warm.cachedTokens, 1888);
  });

  it('a larger batch spreads the decode steps over more calls', () => {
    const target = resolveTarget(parseTargetId('llama-3.1-8b@h100-sxm:bf16'), builtin);
    const at = (concurrency: number) =>
      evaluateTarget(target, { ...ctx, profile: resolveProfile({ profile: 'batch', concurrency }) }).row;
    const [one, many] = [at(1), at(32)];
    assert.ok(one && many);
    assert.ok(
      many.costPerMOutputUsd < one.costPerMOutputUsd / 5,
      `${many.costPerMOutputUsd} vs ${one.costPerMOutputUsd}`,
    );
    assert.ok(many.throughputTokPerS > one.throughputTokPerS * 5);
  });
});
