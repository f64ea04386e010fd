import assert from 'node:assert/strict';
import { closestIds, formatTargetId, parseTargetId, resolveTarget, TargetError } from '../../../../src/core/estimate';
import { builtin } from './helpers';

describe('target ids', () => {
  it('parses MODEL@[Nx]HARDWARE[:PRECISION] and the "HARDWARE xN" spelling', () => {
    assert.deepEqual(parseTargetId('llama-3.1-70b@4xh100-sxm:fp8'), {
      kind: 'self-hosted',
      model: 'llama-3.1-70b',
      hardware: 'h100-sxm',
      gpus: 4,
      precision: 'fp8',
    });
    assert.deepEqual(parseTargetId('llama-3.1-70b@h100-sxm x4:fp8'), {
      kind: 'self-hosted',
      model: 'llama-3.1-70b',
      hardware: 'h100-sxm',
      gpus: 4,
      precision: 'fp8',
    });
    assert.deepEqual(parseTargetId('gpt-oss-20b@mi300x'), {
      kind: 'self-hosted',
      model: 'gpt-oss-20b',
      hardware: 'mi300x',
      gpus: 1,
    });
    assert.deepEqual(parseTargetId('openai/gpt-4o'), { kind: 'provider', id: 'openai/gpt-4o' });
  });

  it('round-trips through formatTargetId', () => {
    for (const id of ['llama-3.1-70b@4xh100-sxm:fp8', 'qwen3-32b@l40s:int4', 'deepseek-v3@8xh200']) {
      const spec = parseTargetId(id);
      assert.equal(spec.kind === 'self-hosted' ? formatTargetId(spec) : '', id);
    }
  });

  it('rejects malformed ids, bad counts and unknown precisions with a message', () => {
    for (const [text, message] of [
      ['llama', /not a target id/],
      ['llama@', /not a target id/],
      ['llama@0xh100-sxm', /GPU count/],
      ['llama@2xh100-sxm x4', /GPU count twice/],
      ['llama@h100-sxm:fp9', /unknown precision 'fp9'.*did you mean fp8/],
    ] as const) {
      assert.throws(
        () => parseTargetId(text),
        (e: unknown) => e instanceof TargetError && message.test(e.message),
        text,
      );
    }
  });

  it('suggests the closest valid ids for unknown models, hardware and providers', () => {
    const check = (id: string, expected: string) =>
      assert.throws(
        () => resolveTarget(parseTargetId(id), builtin),
        (e: unknown) => e instanceof TargetError && e.suggestions[0] === expected,
        id,
      );
    check('lama-3.1-70b@h100-sxm', 'llama-3.1-70b');
    check('llama-3.1-70b@h100sxm', 'h100-sxm');
    check('llama-3.1-70b@h200-sxm', 'h200');
    check('openai/gpt4o', 'openai/gpt-4o');
    check('anthropic/claude-sonnet-45', 'anthropic/claude-sonnet-4.5');
  });

  it('closestIds orders by edit distance and caps the list', () => {
    assert.deepEqual(closestIds('l4', ['h200', 'l4x', 'l40s', 'a10g'], 2), ['l4x', 'l40s']);
  });

  it('defaults to the native precision and refuses one the model is not offered at', () => {
    const ds = resolveTarget(parseTargetId('deepseek-v3@8xh200'), builtin);
    assert.equal(ds.kind === 'self-hosted' && ds.precision, 'fp8');
    assert.throws(() => resolveTarget(parseTargetId('llama-3.1-8b@h100-sxm:fp4'), builtin), /not offered at fp4/);
  });
});
