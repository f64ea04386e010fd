import assert from 'node:assert/strict';
import {
  computeRate,
  estimate,
  overheadMs,
  parseTargetId,
  prefillTime,
  resolveTarget,
  targetLabel,
  TargetError,
  type SelfHostedTarget,
} from '../../../../src/core/estimate';
import { builtin } from './helpers';

const resolve = (id: string, assume: Parameters<typeof resolveTarget>[2] = {}) =>
  resolveTarget(parseTargetId(id), builtin, assume) as SelfHostedTarget;

describe('engines', () => {
  it('the target syntax names an engine after "+", and the CLI/setting default is vLLM, shown in the id', () => {
    assert.deepEqual(parseTargetId('llama-3.1-70b@4xh100-sxm:fp8+vllm'), {
      kind: 'self-hosted',
      model: 'llama-3.1-70b',
      hardware: 'h100-sxm',
      gpus: 4,
      precision: 'fp8',
      engine: 'vllm',
    });
    const plain = resolve('llama-3.1-70b@4xh100-sxm:fp8');
    assert.equal(plain.id, 'llama-3.1-70b@4xh100-sxm:fp8+vllm');
    assert.equal(plain.engineChoice, 'default');
    assert.equal(resolve('llama-3.1-70b@4xh100-sxm:fp8', { engine: 'sglang' }).engine.id, 'sglang');
    assert.equal(resolve('llama-3.1-70b@4xh100-sxm:fp8+trtllm', { engine: 'sglang' }).engine.id, 'trtllm');
  });

  it('covers the engines the issue lists, each with a source, a date, versions and an overhead per scope', () => {
    for (const id of ['trtllm', 'vllm', 'sglang', 'lmdeploy', 'tgi', 'llamacpp', 'ollama', 'mlx']) {
      const e = builtin.engines.get(id);
      assert.ok(e, id);
      assert.ok(e.source && /^\d{4}/.test(e.date) && e.versions, id);
      assert.ok(e.overheadMs.engine >= 0 && e.overheadMs.server >= 0, id);
    }
  });

  it('scope http adds exactly the engine’s server overhead to TTFT; scope engine leaves it out', () => {
    for (const engine of builtin.engines.values()) {
      const runsOn = ['h100-sxm', 'mi300x', 'm3-max', 'cpu'].find((hw) => {
        try {
          resolve(`llama-3.1-8b@${hw}+${engine.id}`);
          return true;
        } catch {
          return false;
        }
      });
      assert.ok(runsOn, engine.id);
      const http = resolve(`llama-3.1-8b@${runsOn}+${engine.id}`, { scope: 'http' });
      const bare = resolve(`llama-3.1-8b@${runsOn}+${engine.id}`, { scope: 'engine' });
      assert.equal(overheadMs(http), engine.overheadMs.engine + engine.overheadMs.server, engine.id);
      assert.equal(overheadMs(bare), engine.overheadMs.engine, engine.id);
      const diff = prefillTime(http, 1000, 0).totalMs - prefillTime(bare, 1000, 0).totalMs;
      assert.ok(Math.abs(diff - engine.overheadMs.server) < 1e-9, engine.id);
    }
    assert.equal(resolve('llama-3.1-8b@h100-sxm').scope, 'http', 'http is the default scope');
  });

  it('engines differ in efficiency: the same deployment gets different prefill times', () => {
    const times = ['trtllm', 'vllm', 'llamacpp'].map(
      (e) => prefillTime(resolve(`llama-3.1-8b@h100-sxm+${e}`), 4000, 0).totalMs,
    );
    assert.equal(new Set(times).size, 3);
  });

  it('falls back, with a note, to the vendor’s engine where the default does not run; an engine named for such hardware is an error', () => {
    const mac = resolve('llama-3.1-8b@m3-max');
    assert.equal(mac.engine.id, 'llamacpp');
    assert.equal(mac.engineChoice, 'fallback');
    const e = estimate(mac, { inputTokens: 1000 });
    assert.match(e.notes.join('\n'), /vLLM does not run on apple hardware: llama\.cpp assumed/);
    assert.throws(
      () => resolve('llama-3.1-8b@m3-max+trtllm'),
      (err: unknown) =>
        err instanceof TargetError &&
        /TensorRT-LLM \(trtllm\) has no efficiency row for apple hardware/.test(err.message),
    );
    assert.throws(() => resolve('llama-3.1-8b@h100-sxm+vllmm'), /unknown engine 'vllmm'; did you mean vllm/);
  });

  it('Ollama runs llama.cpp’s kernels with its own overhead', () => {
    const ollama = resolve('llama-3.1-8b@rtx-4090:int4+ollama', { scope: 'engine' });
    const lcpp = resolve('llama-3.1-8b@rtx-4090:int4+llamacpp', { scope: 'engine' });
    assert.deepEqual(ollama.efficiency, lcpp.efficiency);
    const kernels = (t: SelfHostedTarget) => prefillTime(t, 2000, 0).totalMs - overheadMs(t);
    assert.ok(Math.abs(kernels(ollama) - kernels(lcpp)) < 1e-9);
  });

  it('every self-hosted estimate names its engine, scope and split, and how its range was derived', () => {
    const e = estimate(resolve('llama-3.1-70b@4xh100-sxm:fp8'), { inputTokens: 2000 });
    assert.equal(e.assumptions?.engine.id, 'vllm');
    assert.equal(e.assumptions?.label, 'vLLM · HTTP · TP 4');
    assert.match(e.assumptions?.range ?? '', /leave-one-source-out residuals/);
    const notes = e.notes.join('\n');
    assert.match(notes, /engine: vLLM .*\(the default; name one with \+ENGINE or --engine\)/);
    assert.match(notes, /scope http: TTFT includes vLLM's HTTP server/);
    assert.match(notes, /TP 4 × PP 1 assumed/);
  });

  it('the label every surface prints names the engine, the scope and the split', () => {
    assert.equal(
      targetLabel(resolve('llama-3.1-70b@4xh100-sxm:fp8')),
      'llama-3.1-70b · 4×h100-sxm fp8 · vLLM · HTTP · TP 4',
    );
    assert.equal(
      targetLabel(resolve('llama-3.1-8b@m3-max', { scope: 'engine' })),
      'llama-3.1-8b · m3-max · llama.cpp (apple fallback) · engine only',
    );
  });

  it('the TTFT range is the engine class’s band around p50', () => {
    const t = resolve('llama-3.1-8b@h100-sxm+trtllm');
    const e = estimate(t, { inputTokens: 3000, outputTokens: 1 });
    assert.ok(Math.abs(e.ttftMs.low - e.ttftMs.p50 * t.band.low) < 1e-9);
    assert.ok(Math.abs(e.ttftMs.high - e.ttftMs.p50 * t.band.high) < 1e-9);
    assert.equal(t.band.id, 'tuned');
  });
});

describe('fp16 and 16-bit rates', () => {
  it('a GeForce card runs fp16 at its FP16-accumulate rate on llama.cpp, at the FP32-accumulate rate on vLLM', () => {
    const hw = builtin.hardware.get('rtx-4090');
    assert.deepEqual([hw?.flops.bf16, hw?.flops.fp16], [165.2e12, 330.3e12]);
    assert.equal(computeRate(resolve('llama-3.1-8b@rtx-4090:fp16+llamacpp')).flops, 330.3e12);
    assert.equal(computeRate(resolve('llama-3.1-8b@rtx-4090:fp16+vllm')).flops, 165.2e12);
    assert.equal(computeRate(resolve('llama-3.1-8b@rtx-4090:bf16+llamacpp')).flops, 165.2e12);
  });

  it('a datacenter GPU without a separate fp16 figure runs fp16 at its bf16 rate', () => {
    assert.equal(computeRate(resolve('llama-3.1-8b@h100-sxm:fp16+llamacpp')).flops, 989e12);
  });

  it('dequantised int4 weights run at the engine’s 16-bit rate times its weightOnlyQuant', () => {
    const lcpp = resolve('llama-3.1-8b@rtx-4090:int4+llamacpp');
    assert.deepEqual(computeRate(lcpp), { flops: 330.3e12 * lcpp.efficiency.weightOnlyQuant, native: false });
    const vllm = resolve('llama-3.1-8b@rtx-4090:int4+vllm');
    assert.deepEqual(computeRate(vllm), { flops: 165.2e12 * vllm.efficiency.weightOnlyQuant, native: false });
  });

  it('fp16 is offered wherever bf16 is, and stores two bytes per weight', () => {
    const fp16 = resolve('llama-3.1-8b@h100-sxm:fp16');
    const bf16 = resolve('llama-3.1-8b@h100-sxm:bf16');
    assert.equal(fp16.precision, 'fp16');
    assert.equal(prefillTime(fp16, 8, 0).memoryMs, prefillTime(bf16, 8, 0).memoryMs);
  });
});
