import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  computeRate,
  decodeStep,
  kvBytesPerToken,
  memoryFit,
  prefillFlops,
  prefillTime,
  tensorParallelMs,
} from '../../../../src/core/estimate';
import { bytesPerParam } from '../../../../src/core/estimate/selfHosted';
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

  it('TTFT at 32k tokens on a compute-bound target rises with the attention term (#23)', () => {
    const t = selfHosted('llama-3.1-8b@h100-sxm:bf16');
    const n = 32_768;
    const f = prefillFlops(t.model, n, 0);
    const linearMs = (f.linear / (computeRate(t).flops * t.efficiency.prefill)) * 1000;
    const attentionMs = (f.attention / (t.hardware.flops.bf16 * t.efficiency.attention)) * 1000;
    const p = prefillTime(t, n, 0);
    assert.equal(p.bound, 'compute');
    assert.ok(
      Math.abs(p.computeMs - (linearMs + attentionMs)) < 1e-9 * p.computeMs,
      `${p.computeMs} ≠ ${linearMs} + ${attentionMs}`,
    );
    // At 32k the attention term is a sizeable part of the prefill (Llama 3 8B: 2·4096·32·32768/2 FLOPs per token
    // against 16 GFLOPs of weights), so it shows in the TTFT, not only in the FLOP count.
    assert.ok(attentionMs > 0.2 * linearMs, `${attentionMs} ms of attention against ${linearMs} ms linear`);
    assert.ok(p.totalMs >= linearMs + attentionMs + p.commMs + p.overheadMs - 1e-9);
    // Linear FLOPs scale with n; causal attention with n², so 32× the tokens costs more than 32× the compute.
    assert.ok(p.computeMs > 32 * prefillTime(t, n / 32, 0).computeMs * 1.1);
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

/** #23 item 1: decode and memory, held to the roofline formulas docs/derivation.md writes out. */
describe('self-hosted decode step and memory fit, term by term', () => {
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));

  function expectedDecode(t: ReturnType<typeof selfHosted>, context: number, batch: number, params: number) {
    const kv = kvBytesPerToken(t.model, t.precision);
    const tp = t.parallel.tp;
    const memoryMs =
      ((params * 1e9 * bytesPerParam(t.precision) + batch * context * kv) /
        (t.hardware.memoryBandwidth * tp * t.efficiency.decode)) *
      1000;
    const a = t.model.architecture;
    const flops = 2 * params * 1e9 * batch + 4 * a.layers * a.heads * a.headDim * (context + 0.5) * batch;
    const computeMs = (flops / (computeRate(t).flops * tp * t.efficiency.prefill)) * 1000;
    return { memoryMs, computeMs };
  }

  it('a dense model: weights + KV read at the decode efficiency, FLOPs at the prefill rate, plus TP traffic', () => {
    const t = selfHosted('llama-3.1-70b@4xh100-sxm:fp8+vllm');
    for (const [context, batch] of [
      [4000, 1],
      [30_000, 64],
    ] as const) {
      const d = decodeStep(t, context, batch);
      const want = expectedDecode(t, context, batch, t.model.activeParamsB);
      assert.ok(close(d.memoryMs, want.memoryMs), `memory ${d.memoryMs} vs ${want.memoryMs}`);
      assert.ok(close(d.computeMs, want.computeMs), `compute ${d.computeMs} vs ${want.computeMs}`);
      assert.ok(close(d.commMs, tensorParallelMs(t, batch)) && d.commMs > 0);
      assert.ok(close(d.tpotMs, Math.max(d.memoryMs, d.computeMs) + d.commMs));
      assert.equal(d.bound, d.computeMs > d.memoryMs ? 'compute' : 'memory');
    }
    assert.equal(decodeStep(t, 4000, 1).bound, 'memory');
    assert.equal(decodeStep(selfHosted('llama-3.1-70b@8xh100-sxm:fp8:tp4pp2+vllm'), 100, 4).commMs > 0, true);
  });

  it('an MoE decode step reads the experts its batch touches: 1 − (1 − k/E)^B of them', () => {
    const t = selfHosted('mixtral-8x7b@h100-sxm+vllm');
    const m = t.model;
    const moe = m.architecture.moe!;
    const share = moe.activeExperts / moe.experts;
    for (const batch of [1, 2, 8]) {
      const touched = 1 - (1 - share) ** batch;
      const params = m.activeParamsB + (m.totalParamsB - m.activeParamsB) * ((touched - share) / (1 - share));
      const want = expectedDecode(t, 2000, batch, params);
      const d = decodeStep(t, 2000, batch);
      assert.ok(close(d.memoryMs, want.memoryMs), `batch ${batch}: ${d.memoryMs} vs ${want.memoryMs}`);
      assert.ok(close(d.computeMs, want.computeMs), `batch ${batch}: ${d.computeMs} vs ${want.computeMs}`);
    }
  });

  it('memory fit: 90% of each GPU usable, weights split over the GPUs, the rest holds KV; a prompt fits up to the last token', () => {
    const t = selfHosted('llama-3.1-70b@2xh100-sxm:fp8+vllm');
    const f = memoryFit(t, 1000);
    const weights = (t.model.totalParamsB * 1e9 * bytesPerParam(t.precision)) / 2;
    assert.ok(close(f.weightBytesPerGpu, weights));
    assert.ok(close(f.usableBytesPerGpu, t.hardware.memoryBytes * 0.9));
    const perToken = kvBytesPerToken(t.model, t.precision);
    assert.equal(f.kvCapacityTokens, Math.floor(((t.hardware.memoryBytes * 0.9 - weights) * 2) / perToken));
    assert.equal(f.promptKvBytes, 1000 * perToken);
    assert.deepEqual([f.weightsFit, f.promptFits], [true, true]);
    assert.equal(memoryFit(t, f.kvCapacityTokens).promptFits, true);
    assert.equal(memoryFit(t, f.kvCapacityTokens + 1).promptFits, false);
    const none = memoryFit(selfHosted('llama-3.1-405b@h100-sxm:fp8+vllm'), 10);
    assert.deepEqual([none.weightsFit, none.kvCapacityTokens, none.promptFits], [false, 0, false]);
  });

  it('prefill FLOPs add up, and MLA attends with the mean of its query/key and value widths', () => {
    const v3 = builtin.models.get('deepseek-v3')!;
    const mla = v3.architecture.mla!;
    const f = prefillFlops(v3, 1000, 500);
    const d = (mla.qkHeadDim + mla.vHeadDim) / 2;
    assert.equal(f.attention, 4 * v3.architecture.layers * v3.architecture.heads * d * 1000 * (500 + 500));
    assert.equal(f.total, f.linear + f.attention);
  });
});
