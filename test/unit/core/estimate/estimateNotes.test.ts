import assert from 'node:assert/strict';
import { decodeStep, estimate, memoryFit, parseTargetId, resolveTarget } from '../../../../src/core/estimate';
import { builtin, clone, provider, selfHosted, target } from './helpers';

const calibration = { ttftBaseMs: 100, msPerInputToken: 0.5, tpotMs: 20, date: '2026-11-01' };
const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/** #23 item 1: what an estimate says beside its numbers (the notes and assumptions every surface prints). */
describe('estimate: notes, assumptions and the figures built from the model', () => {
  it('names a default engine and the HTTP scope with their overheads; an engine scope drops the server', () => {
    const t = selfHosted('llama-3.1-8b@h100-sxm');
    const e = estimate(t, { inputTokens: 2000 });
    const { name, versions, overheadMs } = t.engine;
    assert.deepEqual(e.notes, [
      `engine: ${name} ${versions} (the default; name one with +ENGINE or --engine)`,
      `scope http: TTFT includes ${name}'s HTTP server (${overheadMs.server} ms) and its own ${overheadMs.engine} ms`,
    ]);
    const engineScope = resolveTarget(parseTargetId('llama-3.1-8b@h100-sxm+vllm'), builtin, { scope: 'engine' });
    assert.deepEqual(estimate(engineScope, { inputTokens: 2000 }).notes, [
      `scope engine: no HTTP server; TTFT includes ${name}'s own ${overheadMs.engine} ms`,
    ]);
  });

  it('says how an assumed parallel split was chosen, and not when it was named', () => {
    assert.deepEqual(estimate(target('llama-3.1-70b@4xh100-sxm:fp8+vllm'), { inputTokens: 2000 }).notes.slice(1), [
      'parallelism: TP 4 × PP 1 assumed (TP within a node of 8, PP across nodes; set :tpNppM or --tp/--pp); one request crosses the 1 stage(s) in turn',
    ]);
    assert.deepEqual(
      estimate(target('llama-3.1-405b@16xh100-sxm:fp8+llamacpp'), { inputTokens: 2000 }).notes.slice(1),
      [
        'parallelism: TP 1 × PP 16 assumed (llama.cpp splits layers over the devices; set :tpNppM or --tp/--pp); one request crosses the 16 stage(s) in turn',
      ],
    );
    assert.deepEqual(
      estimate(target('llama-3.1-70b@4xh100-sxm:fp8:tp2pp2+vllm'), { inputTokens: 2000 }).notes.slice(1),
      ['parallelism: TP 2 × PP 2; one request crosses the 2 stage(s) in turn'],
    );
    assert.equal(
      estimate(target('llama-3.1-8b@h100-sxm+vllm'), { inputTokens: 2000 }).notes.length,
      1,
      'one GPU: no split',
    );
    // Beyond a node, on hardware whose row gives no network bandwidth, the link is assumed and said so.
    const l40s = builtin.hardware.get('l40s')!;
    assert.equal(l40s.nodeInterconnectBandwidth, undefined);
    const across = estimate(target(`llama-3.1-405b@${2 * l40s.gpusPerNode}xl40s:fp8+vllm`), { inputTokens: 2000 });
    assert.ok(
      across.notes.includes(
        'link across nodes assumed: 400 Gb/s per device (the row gives no nodeInterconnectBandwidth)',
      ),
      across.notes.join('\n'),
    );
    const within = estimate(target(`llama-3.1-70b@${l40s.gpusPerNode}xl40s:fp8+vllm`), { inputTokens: 2000 });
    assert.ok(!within.notes.some((n) => n.startsWith('link across nodes')), within.notes.join('\n'));
  });

  it('says when the weights or the prompt’s KV cache do not fit, with the sizes in GB', () => {
    const big = selfHosted('llama-3.1-405b@h100-sxm:fp8+vllm');
    const m = memoryFit(big, 2000 + 256);
    assert.equal(m.weightsFit, false);
    assert.equal(
      estimate(big, { inputTokens: 2000 }).notes[0],
      `weights (${(m.weightBytesPerGpu / 1e9).toFixed(1)} GB per GPU) do not fit in ${(m.usableBytesPerGpu / 1e9).toFixed(1)} GB usable per GPU: add GPUs or use a smaller precision`,
    );
    const tight = selfHosted('llama-3.1-70b@h100-sxm:fp8+vllm');
    const fit = memoryFit(tight, 120_000 + 256);
    assert.deepEqual([fit.weightsFit, fit.promptFits], [true, false]);
    assert.equal(
      estimate(tight, { inputTokens: 120_000 }).notes[0],
      `this prompt needs ${(fit.promptKvBytes / 1e9).toFixed(1)} GB of KV cache; only ${fit.kvCapacityTokens.toLocaleString('en-US')} tokens fit beside the weights`,
    );
    assert.ok(!estimate(tight, { inputTokens: 2000 }).notes.some((n) => /KV cache|do not fit/.test(n)));
  });

  it('prices a self-hosted call by its replica time; 1,000 calls with a cached prefix are one cold and 999 warm', () => {
    const t = selfHosted('llama-3.1-70b@4xh100-sxm:fp8+vllm');
    const cold = estimate(t, { inputTokens: 4000, outputTokens: 100, concurrency: 4 });
    const warm = estimate(t, { inputTokens: 4000, cachedTokens: 3000, outputTokens: 100, concurrency: 4 });
    assert.ok(close(cold.costPer1kCallsUsd!, 1000 * cold.costUsd!));
    assert.ok(warm.costUsd! < cold.costUsd!);
    assert.ok(close(warm.costPer1kCallsUsd!, cold.costUsd! + 999 * warm.costUsd!));
    const price = t.hardware.usdPerHour!;
    assert.deepEqual(
      { ...warm.selfHostedCost, basis: undefined },
      { perCallUsd: warm.costUsd, per1kCallsUsd: warm.costPer1kCallsUsd, usdPerGpuHour: price.value, basis: undefined },
    );
    assert.equal(
      warm.selfHostedCost!.basis,
      `4 GPUs × $${price.value}/GPU-hour (${price.source}, ${price.date}) × the replica time one call takes at batch 4 (its share of the prefill wave plus output tokens × TPOT ÷ 4)`,
    );
    assert.match(estimate(target('llama-3.1-8b@h100-sxm'), { inputTokens: 10 }).selfHostedCost!.basis, /^1 GPU × \$/);
    assert.ok(!cold.notes.some((n) => n.includes('usdPerHour')));
  });

  it('hardware without a price gives latency only: no cost, and a note that says why', () => {
    const e = estimate(target('llama-3.1-8b@rtx-4090+vllm'), { inputTokens: 2000, cachedTokens: 1000 });
    assert.deepEqual([e.costUsd, e.costPer1kCallsUsd, e.selfHostedCost], [null, null, undefined]);
    assert.ok(
      e.notes.includes("hardware 'rtx-4090' has no $/hour (usdPerHour): latency only, no cost"),
      e.notes.join('\n'),
    );
    assert.ok(e.ttftMs.p50 > 0);
  });

  it('end-to-end = TTFT + output tokens × TPOT at each end of the range; TPOT is read half-way through the output', () => {
    const t = selfHosted('llama-3.1-70b@4xh100-sxm:fp8+vllm');
    const e = estimate(t, { inputTokens: 3000, outputTokens: 400, concurrency: 8 });
    for (const k of ['p50', 'low', 'high'] as const)
      assert.ok(close(e.e2eMs[k], e.ttftMs[k] + 400 * e.tpotMs[k]), `${k}: ${e.e2eMs[k]}`);
    assert.equal(e.tpotMs.p50, decodeStep(t, 3000 + 200, 8).tpotMs);
    assert.deepEqual(e.assumptions?.range, t.band.derivation);
    assert.equal(
      e.assumptions?.rangeLabel,
      `×${t.band.low}–×${t.band.high} of p50 (validation residuals, ${t.band.id} engines)`,
    );
    assert.equal(e.calibrated, false);
  });

  it('a calibrated self-hosted estimate says so in its notes and its range', () => {
    const e = estimate(target('llama-3.1-8b@h100-sxm+vllm'), { inputTokens: 1000, calibration });
    assert.equal(e.calibrated, true);
    assert.equal(e.bound, null);
    assert.equal(e.notes.at(-1), 'latency from the calibrated profile measured 2026-11-01');
    assert.equal(e.assumptions?.range, 'calibrated profile ±10%');
    assert.equal(e.assumptions?.rangeLabel, '±10% of the calibrated profile');
  });

  it('a provider estimate: cache minimum, latency basis, TPOT from output speed, the warm price only on a hit', () => {
    const opus = provider('anthropic/claude-opus-4.5');
    const small = estimate(target(opus.id), { inputTokens: 8000, cachedTokens: 1000 });
    assert.ok(
      small.notes.includes(
        `cached prefix of 1000 tokens is below ${opus.id}'s ${opus.caching.minTokens}-token minimum (or the provider has no prompt caching): billed and timed as cold`,
      ),
      small.notes.join('\n'),
    );
    assert.equal(small.costUsd, small.providerCost!.cold.totalUsd);
    const hit = estimate(target(opus.id), { inputTokens: 8000, cachedTokens: 6000 });
    assert.ok(!hit.notes.some((n) => n.startsWith('cached prefix')));
    assert.equal(hit.costUsd, hit.providerCost!.warm.totalUsd);
    assert.ok(hit.costUsd! < small.costUsd!);

    const mini = provider('openai/gpt-4o-mini');
    const e = estimate(target(mini.id), { inputTokens: 500, outputTokens: 10, concurrency: 16 });
    assert.equal(e.kind, 'provider');
    assert.deepEqual(e.notes, [`latency profile is assumed (${mini.latency.source}, ${mini.latency.date})`]);
    assert.ok(close(e.tpotMs.p50, 1000 / mini.latency.outputTokensPerSecond));
    assert.deepEqual(e.concurrencyTtftMs, { concurrency: 16, p50: e.ttftMs.p50, p99: e.ttftMs.high });
    assert.equal(e.calibrated, false);
    const gpt4o = provider('openai/gpt-4o');
    assert.deepEqual(estimate(target(gpt4o.id), { inputTokens: 500 }).notes, [
      `latency profile is partly assumed (${gpt4o.latency.source}, ${gpt4o.latency.date})`,
    ]);
    const measured = {
      ...target(mini.id),
      provider: { ...clone(mini), latency: { ...clone(mini.latency), basis: 'measured' as const } },
    };
    assert.deepEqual(estimate(measured, { inputTokens: 500 }).notes, []);
    const cal = estimate(target(mini.id), { inputTokens: 500, calibration });
    assert.deepEqual(cal.notes, ['latency from the calibrated profile measured 2026-11-01']);
    assert.equal(cal.calibrated, true);
    assert.equal(cal.tpotMs.p50, 20);
  });
});
