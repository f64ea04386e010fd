import assert from 'node:assert/strict';
import fc from 'fast-check';
import { decodeStep, kvBytesPerToken, memoryFit, prefillFlops, prefillTime } from '../../../../src/core/estimate';
import { builtin, clone, selfHosted } from './helpers';

const SEED = { seed: 4242, numRuns: 60 };

describe('self-hosted latency model', () => {
  it('prefill time grows with new tokens and with cached context (property)', () => {
    const t = selfHosted('llama-3.1-70b@2xh100-sxm:fp8');
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 0, max: 50_000 }),
        (n, extra, c) => {
          assert.ok(prefillTime(t, n + extra, c).totalMs > prefillTime(t, n, c).totalMs);
          assert.ok(prefillTime(t, n, c + extra).totalMs >= prefillTime(t, n, c).totalMs);
        },
      ),
      SEED,
    );
  });

  it('a warm prompt (c cached + n new) is faster than the same prompt cold', () => {
    const t = selfHosted('qwen2.5-72b@4xa100-80gb');
    for (const [total, cached] of [
      [2000, 1500],
      [30_000, 29_000],
      [9000, 10],
    ]) {
      assert.ok(
        prefillTime(t, total - (cached as number), cached as number).totalMs <
          prefillTime(t, total as number, 0).totalMs,
      );
    }
  });

  it('MoE prefill FLOPs follow active, not total, parameters', () => {
    const mixtral = builtin.models.get('mixtral-8x7b')!;
    const denser = { ...clone(mixtral), totalParamsB: 400 };
    assert.equal(prefillFlops(denser, 1000, 0).linear, prefillFlops(mixtral, 1000, 0).linear);
    assert.equal(prefillFlops(mixtral, 1000, 0).linear, 2 * 12.9e9 * 1000);
    const moreActive = { ...clone(mixtral), activeParamsB: 25.8 };
    assert.equal(prefillFlops(moreActive, 1000, 0).linear, 2 * prefillFlops(mixtral, 1000, 0).linear);
  });

  it('splits attention FLOPs: they grow with cached context, linear FLOPs do not', () => {
    const m = builtin.models.get('llama-3.1-8b')!;
    const a = prefillFlops(m, 1000, 0);
    const b = prefillFlops(m, 1000, 10_000);
    assert.equal(a.linear, b.linear);
    assert.ok(b.attention > 10 * a.attention);
    // Causal: n tokens from scratch attend to n/2 positions on average, so doubling n quadruples attention FLOPs.
    assert.equal(prefillFlops(m, 2000, 0).attention, 4 * a.attention);
  });

  it('KV bytes per token: Llama 3 8B bf16 is the widely quoted 128 KiB; MLA stores 576 values per layer', () => {
    assert.equal(kvBytesPerToken(builtin.models.get('llama-3.1-8b')!, 'bf16'), 128 * 1024);
    assert.equal(kvBytesPerToken(builtin.models.get('deepseek-v3')!, 'bf16'), 61 * 576 * 2);
    assert.equal(kvBytesPerToken(builtin.models.get('llama-3.1-8b')!, 'fp8'), 64 * 1024);
  });

  it('names the bound: short prompts are weight-read (memory) bound, long ones compute bound', () => {
    const t = selfHosted('llama-3.1-70b@h100-sxm:fp8');
    assert.equal(prefillTime(t, 8, 0).bound, 'memory');
    assert.equal(prefillTime(t, 8000, 0).bound, 'compute');
  });

  it('adds tensor-parallel communication only with more than one GPU, and more over PCIe than NVLink', () => {
    assert.equal(prefillTime(selfHosted('llama-3.1-8b@h100-sxm'), 4000, 0).commMs, 0);
    const nvlink = prefillTime(selfHosted('llama-3.1-70b@4xh100-sxm'), 4000, 0).commMs;
    const pcie = prefillTime(selfHosted('llama-3.1-70b@4xh100-pcie'), 4000, 0).commMs;
    assert.ok(nvlink > 0 && pcie > 5 * nvlink);
  });

  it('decode is bandwidth-bound: TPOT grows with context, halves with fp8 weights, falls with more bandwidth', () => {
    const t = selfHosted('llama-3.1-8b@h100-sxm');
    assert.equal(decodeStep(t, 1000, 1).bound, 'memory');
    assert.ok(decodeStep(t, 100_000, 1).tpotMs > decodeStep(t, 1000, 1).tpotMs);
    const fp8 = selfHosted('llama-3.1-8b@h100-sxm:fp8');
    const ratio = decodeStep(fp8, 1, 1).memoryMs / decodeStep(t, 1, 1).memoryMs;
    assert.ok(ratio > 0.49 && ratio < 0.51, String(ratio));
    assert.ok(decodeStep(selfHosted('llama-3.1-8b@h200'), 1000, 1).tpotMs < decodeStep(t, 1000, 1).tpotMs);
  });

  it('decode of an MoE at batch 1 reads only active weights, and more as the batch touches more experts', () => {
    const t = selfHosted('qwen3-235b-a22b@4xh100-sxm:fp8');
    const one = decodeStep(t, 0, 1).memoryMs;
    const many = decodeStep(t, 0, 256).memoryMs;
    const dense = {
      ...t,
      model: {
        ...t.model,
        activeParamsB: t.model.totalParamsB,
        architecture: { ...t.model.architecture, moe: undefined },
      },
    };
    assert.ok(many > 5 * one);
    assert.ok(many <= decodeStep(dense, 0, 1).memoryMs * 1.0001);
  });

  it('flags weights that do not fit and prompts whose KV cache does not fit', () => {
    assert.equal(memoryFit(selfHosted('llama-3.1-405b@h100-sxm:fp8'), 1000).weightsFit, false);
    assert.equal(memoryFit(selfHosted('llama-3.1-405b@8xh100-sxm:fp8'), 1000).weightsFit, true);
    const tight = memoryFit(selfHosted('llama-3.1-70b@h100-sxm:fp8'), 131_072);
    assert.equal(tight.weightsFit, true);
    assert.equal(tight.promptFits, false);
  });
});
