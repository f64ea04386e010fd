import assert from 'node:assert/strict';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { coldScenario, scenarioFigures } from '../../../src/core/estimate/scenarios';
import { linearCostModel } from '../../../src/core/findings/costModel';
import { findingTarget } from '../../../src/core/findings/targets';

// findingTarget adapts the estimation engine: its figures must be the engine's own for the same scenario,
// so a finding's "cold 380 ms" is the hover's.
describe('finding target (the engine as findings see it)', () => {
  const { tables } = loadTables();
  const workload = { concurrency: 8, outputTokens: 256 };
  const engine = (id: string) => resolveTarget(parseTargetId(id), tables);
  const cold = (id: string, n: number) => scenarioFigures(engine(id), coldScenario(workload, n));
  const warm = (id: string, n: number, cached: number) =>
    scenarioFigures(engine(id), { ...coldScenario(workload, n), cache: 'warm', cachedTokens: cached });

  it('cold and warm TTFT and cost are the engine’s for each (input, cached) pair', () => {
    const id = 'openai/gpt-4o';
    const t = findingTarget(engine(id), workload);
    assert.equal(t.tokenizer, 'o200k_base');
    assert.equal(t.model.ttftMs(5000, 0), cold(id, 5000).ttftMs.p50);
    assert.equal(t.model.costUsd(5000, 0), cold(id, 5000).costUsd);
    assert.equal(t.model.ttftMs(6000, 0), cold(id, 6000).ttftMs.p50, 'another length: not the first answer again');
    assert.equal(t.model.costUsd(5000, 4096), warm(id, 5000, 4096).costUsd);
    assert.equal(t.model.ttftMs(5000, 4096), warm(id, 5000, 4096).ttftMs.p50);
    assert.ok(
      (t.model.costUsd(5000, 4096) as number) < (t.model.costUsd(5000, 0) as number),
      'cached input is cheaper',
    );
    assert.equal(t.model.scenario, '8 concurrent requests, 256 output tokens');
    assert.equal(t.model.contextWindow, 128000);
  });

  it('at least one input token, and at least one of them uncached', () => {
    const id = 'llama-3.1-70b@4xh100-sxm';
    const t = findingTarget(engine(id), workload);
    assert.equal(t.model.ttftMs(0, 0), cold(id, 1).ttftMs.p50);
    assert.ok(t.model.ttftMs(5000, 0) > t.model.ttftMs(1, 0));
    assert.equal(t.model.ttftMs(5000, 5000), warm(id, 5000, 4999).ttftMs.p50);
    assert.equal(t.model.ttftMs(5000, 9000), warm(id, 5000, 4999).ttftMs.p50);
    assert.ok(t.model.ttftMs(5000, 2048) > t.model.ttftMs(5000, 4999), 'more cached, less to prefill');
    assert.ok(t.model.ttftMs(5000, 2048) < t.model.ttftMs(5000, 0));
    assert.equal(t.model.contextWindow, 131072, "a self-hosted target's window is its model's (data/models.json)");
  });
});

describe('linear test cost model', () => {
  it('says it is a test model and keeps the context window only when given', () => {
    const params = {
      label: 'm',
      cacheRule: { minTokens: 16, granularity: 16 },
      baseMs: 10,
      msPerToken: 1,
      msPerCachedToken: 0.5,
      usdPerMillionInput: 1,
      usdPerMillionCached: 0.25,
    };
    const model = linearCostModel(params);
    assert.equal(model.serving, 'linear test model');
    assert.equal('contextWindow' in model, false);
    assert.equal(linearCostModel({ ...params, contextWindow: 100 }).contextWindow, 100);
    assert.equal(model.ttftMs(100, 40), 10 + 60 + 20);
    assert.equal(model.costUsd(100, 40), (60 + 10) / 1e6);
  });
});
