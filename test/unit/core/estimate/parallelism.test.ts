import assert from 'node:assert/strict';
import {
  estimate,
  parseTargetId,
  pipelineMs,
  prefillTime,
  resolveTarget,
  tensorParallelMs,
  TargetError,
  type SelfHostedTarget,
} from '../../../../src/core/estimate';
import { builtin, clone } from './helpers';
import { loadTables } from '../../../../src/core/estimate';

const resolve = (id: string, tables = builtin) => resolveTarget(parseTargetId(id), tables) as SelfHostedTarget;

describe('tensor and pipeline parallelism', () => {
  it('defaults to TP within a node of up to 8 and PP across nodes, and says it assumed that', () => {
    assert.deepEqual(resolve('llama-3.1-70b@4xh100-sxm').parallel, { tp: 4, pp: 1, assumed: true });
    assert.deepEqual(resolve('llama-3.1-405b@16xh100-sxm:fp8').parallel, { tp: 8, pp: 2, assumed: true });
    assert.deepEqual(resolve('llama-3.1-405b@32xh100-sxm').parallel, { tp: 8, pp: 4, assumed: true });
    // GH200 is one superchip per node unless a row says otherwise.
    assert.deepEqual(resolve('llama-3.1-405b@32xgh200').parallel, { tp: 1, pp: 32, assumed: true });
    // 12 GPUs: the largest TP that divides 12 within a node of 8 is 6.
    assert.deepEqual(resolve('llama-3.1-70b@12xh100-sxm').parallel, { tp: 6, pp: 2, assumed: true });
  });

  it('takes an explicit split from the id, and refuses one that does not match the device count', () => {
    const t = resolve('llama-3.1-70b@8xh100-sxm:bf16:tp4pp2+vllm');
    assert.deepEqual(t.parallel, { tp: 4, pp: 2, assumed: false });
    assert.equal(t.id, 'llama-3.1-70b@8xh100-sxm:bf16:tp4pp2+vllm');
    assert.equal(resolve('llama-3.1-70b@h100-sxm:tp2pp2').gpus, 4, 'the split alone gives the count');
    assert.throws(() => resolve('llama-3.1-70b@8xh100-sxm:tp3'), /tp 3 × pp 2.666|does not match 8 device/);
  });

  it('llama.cpp splits layers, so its devices are pipeline stages; TP on it is refused', () => {
    assert.deepEqual(resolve('llama-3.1-70b@4xrtx-4090:int4+llamacpp').parallel, { tp: 1, pp: 4, assumed: true });
    assert.throws(
      () => resolve('llama-3.1-70b@4xrtx-4090:int4:tp4+llamacpp'),
      (e: unknown) => e instanceof TargetError && /splits a model by layers/.test(e.message),
    );
  });

  it('tensor parallelism all-reduces twice per layer as a ring: 2(N−1)/N of the activations per link, plus a fixed cost', () => {
    const t = resolve('llama-3.1-70b@4xh100-sxm');
    const tokens = 1000;
    const bytes = tokens * 8192 * 2;
    const perAllReduce = ((2 * 3) / 4) * (bytes / 450e9) + t.engine.collectiveUs * 1e-6;
    assert.ok(Math.abs(tensorParallelMs(t, tokens) - 2 * 80 * perAllReduce * 1000) < 1e-9);
    assert.equal(tensorParallelMs(resolve('llama-3.1-8b@h100-sxm'), tokens), 0);
    // The same split over PCIe costs more than over NVLink.
    assert.ok(tensorParallelMs(resolve('llama-3.1-70b@4xh100-pcie'), tokens) > 5 * tensorParallelMs(t, tokens));
  });

  it('pipeline stages hand the activations on once per boundary, over the network between nodes', () => {
    const inNode = resolve('llama-3.1-70b@8xh100-sxm:tp4pp2');
    const acrossNodes = resolve('llama-3.1-405b@16xh100-sxm:fp8');
    assert.ok(pipelineMs(inNode, 1000) > 0);
    assert.equal(pipelineMs(resolve('llama-3.1-70b@8xh100-sxm'), 1000), 0);
    const bytes = 1000 * 16384 * 2;
    const expected = (bytes / 50e9 + acrossNodes.engine.collectiveUs * 2.5e-6) * 1000;
    assert.ok(Math.abs(pipelineMs(acrossNodes, 1000) - expected) < 1e-9);
  });

  it('one request crosses the stages in turn: PP adds memory, not single-request speed', () => {
    const tp4 = prefillTime(resolve('llama-3.1-70b@4xh100-sxm'), 4000, 0);
    const tp4pp2 = prefillTime(resolve('llama-3.1-70b@8xh100-sxm:tp4pp2'), 4000, 0);
    const tp8 = prefillTime(resolve('llama-3.1-70b@8xh100-sxm'), 4000, 0);
    assert.ok(Math.abs(tp4pp2.computeMs - tp4.computeMs) < 1e-9);
    assert.ok(tp4pp2.totalMs > tp4.totalMs, 'plus one hand-off');
    assert.ok(tp8.computeMs < tp4pp2.computeMs);
  });

  it('llama.cpp’s micro-batches follow each other through the stages: (m + P − 1)/(m·P) of the compute', () => {
    const one = resolve('llama-3.1-8b@rtx-4090:fp16+llamacpp');
    const four = resolve('llama-3.1-8b@4xrtx-4090:fp16+llamacpp');
    const single = prefillTime(one, 4096, 0).computeMs;
    // 4096 tokens in 512-token chunks: m = 8 chunks over P = 4 stages take 11 steps of 1/32 of the work.
    assert.ok(Math.abs(prefillTime(four, 4096, 0).computeMs - (single * 11) / 32) < 1e-9);
    // A prompt of one chunk gains nothing.
    assert.ok(Math.abs(prefillTime(four, 512, 0).computeMs - prefillTime(one, 512, 0).computeMs) < 1e-9);
  });

  it('concurrent requests overlap across stages, so queueing grows by 1/P of a prefill per request', () => {
    const at = (id: string, c: number) => estimate(resolve(id), { inputTokens: 8000, concurrency: c, outputTokens: 1 });
    const tp4 = at('llama-3.1-70b@4xh100-sxm', 16);
    const tp4pp2 = at('llama-3.1-70b@8xh100-sxm:tp4pp2', 16);
    assert.ok(tp4pp2.concurrencyTtftMs.p99 < tp4.concurrencyTtftMs.p99);
  });

  it('memory is split over every device, whether by TP or PP', () => {
    const tp8 = estimate(resolve('llama-3.1-405b@8xh100-sxm:fp8'), { inputTokens: 1000 }).memory;
    const tp4pp2 = estimate(resolve('llama-3.1-405b@8xh100-sxm:fp8:tp4pp2'), { inputTokens: 1000 }).memory;
    assert.equal(tp8?.weightBytesPerGpu, tp4pp2?.weightBytesPerGpu);
  });

  it('needs an interconnect only for more than one device, and says so when it is missing', () => {
    const { interconnectBandwidth: _link, ...single } = clone(builtin.hardware.get('l40s')!);
    const { tables } = loadTables([{ name: 't', data: { hardware: [{ ...single, id: 'solo' }] } }]);
    assert.doesNotThrow(() => resolve('llama-3.1-8b@solo', tables));
    assert.throws(
      () => resolve('llama-3.1-8b@2xsolo', tables),
      /'solo' gives no interconnectBandwidth, which 2 devices need/,
    );
  });
});
