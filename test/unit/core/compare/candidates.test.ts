import assert from 'node:assert/strict';
import { fewestGpus, providerCandidates, selfHostedCandidates, selfHostedModel } from '../../../../src/core/compare';
import { loadTables, TargetError } from '../../../../src/core/estimate';
import { builtin, clone, selfHosted } from '../estimate/helpers';

describe('compare: candidates', () => {
  const h100 = selfHosted('llama-3.1-70b@h100-sxm:bf16+vllm');
  const deployment = {
    model: h100.model,
    hardware: h100.hardware,
    efficiency: h100.efficiency,
    precision: h100.precision,
  };

  it('picks the fewest GPUs whose memory holds the weights plus the KV cache', () => {
    // 70.6B × 2 bytes = 141.2 GB of weights; 90% of 80 GB = 72 GB usable per GPU, so one GPU cannot hold them.
    // On 2 GPUs: (72 − 70.6) GB × 2 = 2.8 GB of room ÷ 327,680 bytes/token (2·80 layers·8 KV heads·128·2) = 8,544
    // tokens.
    assert.equal(fewestGpus(deployment, 1), 2);
    assert.equal(fewestGpus(deployment, 8544), 2);
    assert.equal(fewestGpus(deployment, 8545), 4);
    // On 4 GPUs: (72 − 35.3) GB × 4 = 146.8 GB ÷ 327,680 = 447,998 tokens.
    assert.equal(fewestGpus(deployment, 447_998), 4);
    assert.equal(fewestGpus(deployment, 447_999), 8);
    // fp8 halves the weights (70.6 GB) and the KV cache: one GPU holds the weights with 1.4 GB to spare.
    assert.equal(fewestGpus({ ...deployment, precision: 'fp8' }, 1000), 1);
  });

  it('deploys each hardware × precision at the fewest GPUs and at twice that', () => {
    const model = builtin.models.get('llama-3.1-70b');
    assert.ok(model);
    const { targets, skipped } = selfHostedCandidates(model, builtin, 8 * 2000);
    const ids = targets.map((t) => t.id);
    assert.ok(
      ids.includes('llama-3.1-70b@4xh100-sxm:bf16+vllm') && ids.includes('llama-3.1-70b@8xh100-sxm:bf16+vllm'),
      ids.join(),
    );
    assert.ok(
      !ids.includes('llama-3.1-70b@2xh100-sxm:bf16+vllm'),
      '16,000 tokens of KV do not fit beside bf16 weights on 2 GPUs',
    );
    // fp8 on one GPU leaves 1.4 GB ÷ 163,840 bytes/token = 8,544 tokens: too few for 16,000, so 2 and 4.
    assert.ok(
      ids.includes('llama-3.1-70b@2xh100-sxm:fp8+vllm') &&
        ids.includes('llama-3.1-70b@4xh100-sxm:fp8+vllm') &&
        !ids.includes('llama-3.1-70b@h100-sxm:fp8+vllm'),
    );
    // Hardware without a price is left out once, with why; every priced row × precision gives two targets or a skip.
    const unpriced = [...builtin.hardware.values()].filter((h) => !h.usdPerHour);
    const priced = builtin.hardware.size - unpriced.length;
    for (const h of unpriced)
      assert.ok(
        skipped.some((s) => s.startsWith(`llama-3.1-70b@${h.id}: no $/GPU-hour`)),
        h.id,
      );
    assert.equal(targets.length + (skipped.length - unpriced.length) * 2, priced * model.precisions.length * 2);
    for (const hw of builtin.hardware.keys()) {
      const counts = targets.filter((t) => t.hardware.id === hw && t.precision === 'int4').map((t) => t.gpus);
      if (counts.length > 0) assert.deepEqual(counts, [counts[0], (counts[0] ?? 0) * 2]);
    }
  });

  it('leaves out hardware on which even 64 GPUs cannot hold the model', () => {
    const tiny = clone(builtin.hardware.get('l4'));
    const { tables } = loadTables([{ name: 'test', data: { hardware: [{ ...tiny, id: 'tiny', memoryBytes: 1e9 }] } }]);
    const model = tables.models.get('llama-3.1-405b');
    assert.ok(model);
    const { targets, skipped } = selfHostedCandidates(model, tables, 1000);
    assert.ok(!targets.some((t) => t.hardware.id === 'tiny'));
    assert.ok(
      skipped.some((s) => s.startsWith('llama-3.1-405b@tiny:bf16: ') && s.includes('64 GPUs')),
      skipped.join('\n'),
    );
  });

  it('finds the model to self-host: the chosen one, else the prompt’s, through a provider row when needed', () => {
    assert.equal(selfHostedModel(builtin, { chosen: 'llama-3.1-8b', promptModel: 'gpt-4o' })?.id, 'llama-3.1-8b');
    assert.equal(selfHostedModel(builtin, { promptModel: 'llama-3.1-70b' })?.id, 'llama-3.1-70b');
    assert.equal(selfHostedModel(builtin, { promptModel: 'groq/llama-3.3-70b-versatile' })?.id, 'llama-3.3-70b');
    assert.equal(selfHostedModel(builtin, { promptModel: 'llama-3.3-70b-versatile' })?.id, 'llama-3.3-70b');
    // Names are matched as the primary target's front matter matches them: case does not matter.
    assert.equal(selfHostedModel(builtin, { promptModel: 'Llama-3.1-70B' })?.id, 'llama-3.1-70b');
    assert.equal(selfHostedModel(builtin, { chosen: 'groq/llama-3.3-70b-versatile' })?.id, 'llama-3.3-70b');
    assert.equal(selfHostedModel(builtin, { promptModel: 'gpt-4o' }), undefined);
    assert.throws(() => selfHostedModel(builtin, { chosen: 'openai/gpt-4o' }), /unknown model 'openai\/gpt-4o'/);
    assert.equal(selfHostedModel(builtin, {}), undefined);
    assert.throws(
      () => selfHostedModel(builtin, { chosen: 'lama-3.1-70b' }),
      (e: unknown) =>
        e instanceof TargetError &&
        e.suggestions[0] === 'llama-3.1-70b' &&
        /unknown model 'lama-3.1-70b'/.test(e.message),
    );
  });

  it('offers every provider model still served, and no retired one', () => {
    const ids = providerCandidates(builtin).map((t) => t.id);
    assert.deepEqual(
      ids,
      [...builtin.providers.values()].filter((p) => !p.retired).map((p) => p.id),
    );
    assert.ok(builtin.providers.get('anthropic/claude-3.5-haiku')?.retired);
    assert.ok(!ids.includes('anthropic/claude-3.5-haiku'));
  });
});
