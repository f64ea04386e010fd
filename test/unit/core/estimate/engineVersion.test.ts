import assert from 'node:assert/strict';
import {
  assumptionLabel,
  engineRelease,
  estimate,
  formatTargetId,
  parseTargetId,
  prefillTime,
  TargetError,
  type TargetAssumptions,
} from '../../../../src/core/estimate';
import { compareVersions } from '../../../../src/core/estimate/engineVersion';
import { pointTarget, type ValidationPoint } from '../../../../src/core/estimate/validation';
import { releaseNote } from '../../../../src/extension/surfaces/targetTable';
import { editorAnalysis } from '../../helpers/editorAnalysis';
import { builtin, selfHosted, target } from './helpers';

const resolve = (id: string, assume: TargetAssumptions = {}) => selfHosted(id, builtin, assume);
const llamacpp = builtin.engines.get('llamacpp')!;
const olderRange = llamacpp.olderVersions.find((r) => r.id === 'cublas-prefill')!;

describe('engine release ranges', () => {
  it('the llama.cpp row carries the pre-PR #8075 range with its before/after evidence and source', () => {
    assert.ok(olderRange, 'llama.cpp has a cublas-prefill range');
    assert.equal(olderRange.before, '2024-06-24');
    assert.deepEqual(olderRange.precisions, ['int4', 'int8']);
    // The factor is the ratio the evidence states (7,776.11 / 10,358.75 t/s), not a fitted value.
    assert.equal(olderRange.prefillFactor.nvidia, Number((7776.11 / 10358.75).toFixed(3)));
    assert.match(olderRange.evidence, /7,776\.11.*10,358\.75/);
    assert.match(olderRange.source, /pull\/7676/);
  });

  it('places a version: default and "current" are the current range; dates before the boundary, the range id, fall in the older one', () => {
    const ada = builtin.hardware.get('rtx-4090')!;
    const current = engineRelease(llamacpp, undefined, ada, 'int4');
    assert.deepEqual(current, {
      range: 'current',
      label: `llama.cpp current (${llamacpp.versions})`,
      prefillFactor: 1,
    });
    for (const given of ['current', 'latest', '2024-06-24', '2025-01', '2024-07-01'])
      assert.equal(engineRelease(llamacpp, given, ada, 'int4').range, 'current', given);
    for (const given of ['2024-06-23', '2024-06', '2023-09-09', 'cublas-prefill']) {
      const old = engineRelease(llamacpp, given, ada, 'int4');
      assert.equal(old.range, 'cublas-prefill', given);
      assert.equal(old.given, given);
      assert.equal(old.prefillFactor, olderRange.prefillFactor.nvidia);
      assert.match(old.label, /^llama\.cpp builds before 2024-06-24 \(PR #8075\)/);
      assert.match(old.basis ?? '', /^prefill ×0\.751 of the current release's: RTX 4090/);
    }
  });

  it('the factor applies only to the precisions and vendors the evidence covers', () => {
    const ada = builtin.hardware.get('rtx-4090')!;
    const f16 = engineRelease(llamacpp, '2024-05', ada, 'fp16');
    assert.equal(f16.range, 'cublas-prefill');
    assert.equal(f16.prefillFactor, 1, 'fp16 weights ran cuBLAS before and after');
    assert.match(f16.basis ?? '', /no prefill change measured for fp16 on nvidia-ada/);
    const apple = engineRelease(llamacpp, '2024-05', builtin.hardware.get('m2-ultra')!, 'int4');
    assert.equal(apple.prefillFactor, 1, 'Metal builds are not the CUDA change');
  });

  it('rejects a version it cannot place, saying what the engine accepts; engines without ranges say so', () => {
    const ada = builtin.hardware.get('rtx-4090')!;
    assert.throws(
      () => engineRelease(llamacpp, 'b3000', ada, 'int4'),
      /unknown llama\.cpp version 'b3000'; give a build date \(YYYY-MM or YYYY-MM-DD\) or one of: current, cublas-prefill/,
    );
    const vllm = builtin.engines.get('vllm')!;
    const given = engineRelease(vllm, '0.6.3', builtin.hardware.get('h100-sxm')!, 'bf16');
    assert.equal(given.range, 'current');
    assert.equal(given.prefillFactor, 1);
    assert.match(given.label, /^vLLM current \(.*\); no earlier range has before\/after measurements$/);
    assert.ok(compareVersions('0.10.1', '0.9.2') > 0 && compareVersions('0.6', '0.6.0') === 0);
  });

  it('a target names the release after its engine (+ENGINE~VERSION); the id and the label keep it', () => {
    const spec = parseTargetId('llama-3.1-8b@rtx-4090:int4+llamacpp~2024-05');
    assert.deepEqual(spec, {
      kind: 'self-hosted',
      model: 'llama-3.1-8b',
      hardware: 'rtx-4090',
      gpus: 1,
      precision: 'int4',
      engine: 'llamacpp',
      engineVersion: '2024-05',
    });
    const written = { model: 'llama-3.1-8b', hardware: 'rtx-4090', gpus: 1, precision: 'int4' as const };
    assert.equal(
      formatTargetId({ ...written, engine: 'llamacpp', engineVersion: '2024-05' }),
      'llama-3.1-8b@rtx-4090:int4+llamacpp~2024-05',
    );
    const old = resolve('llama-3.1-8b@rtx-4090:int4+llamacpp~2024-05');
    assert.equal(old.id, 'llama-3.1-8b@rtx-4090:int4+llamacpp~2024-05');
    assert.equal(assumptionLabel(old), 'llama.cpp ~2024-05 · HTTP');
    // The current range is the default and goes unsaid in the label.
    assert.equal(assumptionLabel(resolve('llama-3.1-8b@rtx-4090:int4+llamacpp')), 'llama.cpp · HTTP');
    // --engine-version / the setting supply it when the target names none; the target's own wins.
    assert.equal(
      resolve('llama-3.1-8b@rtx-4090:int4+llamacpp', { engineVersion: '2024-05' }).release.range,
      'cublas-prefill',
    );
    assert.equal(
      resolve('llama-3.1-8b@rtx-4090:int4+llamacpp~current', { engineVersion: '2024-05' }).release.range,
      'current',
    );
    assert.throws(() => resolve('llama-3.1-8b@rtx-4090:int4+llamacpp~b3000'), TargetError);
    assert.throws(() => parseTargetId('llama-3.1-8b@rtx-4090:int4~2024-05'), TargetError, 'a version needs its engine');
  });

  it('an older range scales the linear layers’ prefill rate by its factor, and the estimate lists why', () => {
    const current = resolve('llama-3.1-8b@rtx-4090:int4+llamacpp');
    const old = resolve('llama-3.1-8b@rtx-4090:int4+llamacpp~2024-05');
    // Same as the current release with its prefill efficiency times the factor: nothing else changes.
    const scaled = { ...current, efficiency: { ...current.efficiency, prefill: current.efficiency.prefill * 0.751 } };
    assert.deepEqual(prefillTime(old, 4096, 0), prefillTime(scaled, 4096, 0));
    assert.ok(prefillTime(old, 4096, 0).computeMs > prefillTime(current, 4096, 0).computeMs);
    const e = estimate(old, { inputTokens: 4096, outputTokens: 1 });
    assert.equal(e.assumptions?.release.range, 'cublas-prefill');
    assert.ok(e.notes.some((n) => /^engine release: llama\.cpp builds before 2024-06-24 .*prefill ×0\.751/.test(n)));
    assert.ok(
      !estimate(current, { inputTokens: 4096, outputTokens: 1 }).notes.some((n) => n.startsWith('engine release')),
    );
  });

  it('a validation point’s recorded release reaches its target; the default engine is predicted at its current release', () => {
    const point: ValidationPoint = {
      id: 'p',
      source: 's',
      engine: 'llamacpp',
      engineVersion: 'May 2024 build',
      release: '2024-05',
      scope: 'engine',
      model: 'llama-3.1-8b',
      hardware: 'rtx-4090',
      gpus: 1,
      precision: 'int4',
      metric: 'prefill_tokens_per_s',
      inputTokens: 512,
      measured: 6000,
      measures: 'test',
    };
    assert.equal(pointTarget(point, builtin).release.range, 'cublas-prefill');
    assert.equal(pointTarget(point, builtin, null).release.range, 'current');
  });

  it('the hover and status bar tooltip footnote names the release range of each self-hosted target', async () => {
    const text = 'Summarise the ticket below.\n\nTicket: the printer is on fire.\n';
    const note = async (id: string) =>
      releaseNote([(await editorAnalysis('a.prompt', text, resolve(id), builtin)).estimate]);
    assert.equal(
      await note('llama-3.1-8b@rtx-4090:int4+llamacpp'),
      `Engine release: llama-3.1-8b · rtx-4090 int4 · llama.cpp · HTTP — llama.cpp current (${llamacpp.versions}).`,
    );
    assert.equal(
      await note('llama-3.1-8b@rtx-4090:int4+llamacpp~2024-05'),
      `Engine release: llama-3.1-8b · rtx-4090 int4 · llama.cpp ~2024-05 · HTTP — llama.cpp ${olderRange.label} (version 2024-05), prefill ×0.751.`,
    );
    const provider = target('openai/gpt-4o');
    assert.equal(releaseNote([(await editorAnalysis('a.prompt', text, provider, builtin)).estimate]), undefined);
  });
});
