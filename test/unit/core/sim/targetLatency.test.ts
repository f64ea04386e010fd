import assert from 'node:assert/strict';
import { estimate, loadTables, parseTargetId, resolveTarget } from '../../../../src/core/estimate';
import { targetLatencyModel } from '../../../../src/core/sim/targetLatency';
import { runCli } from '../../../../src/cli/main';
import { memoryIo } from '../../helpers/memoryIo';

describe('simulator latency from the estimation engine', () => {
  const { tables } = loadTables();
  const selfHosted = resolveTarget(parseTargetId('llama-3.1-70b@4xh100-sxm'), tables);
  const provider = resolveTarget(parseTargetId('openai/gpt-4o'), tables);

  it('prefills exactly as the estimate predicts, and cached tokens are cheaper', () => {
    const model = targetLatencyModel(selfHosted);
    assert.equal(model.prefillMs(4000, 0), estimate(selfHosted, { inputTokens: 4000, outputTokens: 1 }).ttftMs.p50);
    assert.ok(model.prefillMs(8000, 0) > model.prefillMs(2000, 0));
    assert.ok(model.prefillMs(1000, 3000) < model.prefillMs(4000, 0));
  });

  it('decodes slower at a larger batch and longer context (self-hosted), at the provider speed for APIs', () => {
    const model = targetLatencyModel(selfHosted);
    assert.ok(model.tpotMs(1000, 32) > model.tpotMs(1000, 1));
    assert.ok(model.tpotMs(100_000, 8) > model.tpotMs(1000, 8));
    const api = targetLatencyModel(provider);
    assert.ok(provider.kind === 'provider');
    assert.equal(api.tpotMs(1000, 1), 1000 / provider.provider.latency.outputTokensPerSecond);
  });

  it('serve-sim --target rejects an unknown target with the closest ids and exit 2', async () => {
    const io = memoryIo({});
    assert.equal(await runCli(['serve-sim', '--target', 'llama-3.1-70b@4xh100-sx'], io), 2);
    assert.match(io.stderr, /h100-sxm/);
    assert.equal(io.stderr.trim().split('\n').length, 1);
  });
});
