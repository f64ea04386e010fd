import assert from 'node:assert/strict';
import {
  cheapestMeeting,
  cheapestMeetingLine,
  compareTargets,
  resolveProfile,
  sortRows,
} from '../../../../src/core/compare';
import { builtin } from '../estimate/helpers';
import { fixedTokens, row } from './helpers';

describe('compare: ranking', () => {
  // Per-call and per-output-token costs disagree on purpose, so the key each profile ranks by shows.
  const rows = [
    row({ target: 'c-fails-cheapest', meetsSlo: false, costPer1kCallsUsd: 0.1, costPerMOutputUsd: 0.1 }),
    row({ target: 'b', costPer1kCallsUsd: 2, costPerMOutputUsd: 1 }),
    row({ target: 'a', costPer1kCallsUsd: 1, costPerMOutputUsd: 3 }),
    row({ target: 'd-fails', meetsSlo: false, costPer1kCallsUsd: 5, costPerMOutputUsd: 0.05 }),
  ];

  it('interactive: rows meeting the SLO first by $ per 1,000 calls, then the rest by the same cost', () => {
    assert.deepEqual(
      sortRows(rows, 'costPer1kCalls').map((r) => r.target),
      ['a', 'b', 'c-fails-cheapest', 'd-fails'],
    );
  });

  it('batch: by $ per million output tokens', () => {
    assert.deepEqual(
      sortRows(rows, 'costPerMOutput').map((r) => r.target),
      ['b', 'a', 'd-fails', 'c-fails-cheapest'],
    );
  });

  it('cheapestMeeting skips cheaper rows that fail, and is undefined when nothing meets', () => {
    assert.equal(cheapestMeeting(rows)?.target, 'a');
    assert.equal(cheapestMeeting(rows, 'costPerMOutput')?.target, 'b');
    assert.equal(cheapestMeeting(rows.filter((r) => !r.meetsSlo)), undefined);
  });

  describe('on the built-in tables', () => {
    const model = builtin.models.get('llama-3.1-70b');
    const run = (settings: Parameters<typeof resolveProfile>[0], tokens = 2000) =>
      compareTargets({
        tables: builtin,
        profile: resolveProfile(settings),
        countTokens: fixedTokens(tokens),
        ...(model ? { model } : {}),
      });

    it('interactive: every meeting row comes before every failing row, each group cheapest first', () => {
      const result = run({ profile: 'interactive' });
      const firstFail = result.rows.findIndex((r) => !r.meetsSlo);
      assert.ok(firstFail > 0 && result.rows.slice(firstFail).every((r) => !r.meetsSlo));
      for (const group of [result.rows.slice(0, firstFail), result.rows.slice(firstFail)]) {
        for (let i = 1; i < group.length; i++)
          assert.ok((group[i - 1]?.costPer1kCallsUsd ?? 0) <= (group[i]?.costPer1kCallsUsd ?? 0));
      }
      assert.ok(result.rows.some((r) => r.kind === 'self-hosted') && result.rows.some((r) => r.kind === 'provider'));
      assert.match(
        cheapestMeetingLine(result),
        new RegExp(
          `^Cheapest meeting the interactive SLO: ${result.rows[0]?.target.replace(/[.]/g, '\\.')}, \\$[\\d.]+ per 1,000 calls`,
        ),
      );
    });

    it('batch: no latency limit, so self-hosted rows too slow for interactive use still rank by $ per million output tokens', () => {
      const interactive = run({ profile: 'interactive' });
      const batch = run({ profile: 'batch' });
      assert.ok(batch.rows.every((r) => r.meetsSlo));
      for (let i = 1; i < batch.rows.length; i++)
        assert.ok((batch.rows[i - 1]?.costPerMOutputUsd ?? 0) <= (batch.rows[i]?.costPerMOutputUsd ?? 0));
      const slowSelfHosted = interactive.rows.find((r) => r.kind === 'self-hosted' && !r.meetsSlo);
      assert.ok(slowSelfHosted && batch.rows.some((r) => r.target === slowSelfHosted.target));
      assert.match(cheapestMeetingLine(batch), /per M output tokens/);
    });

    it('leaves out targets whose context window the prompt plus output exceeds, saying why', () => {
      const result = run({ profile: 'interactive' }, 127_900);
      assert.ok(!result.rows.some((r) => r.target === 'openai/gpt-4o'));
      assert.ok(
        result.skipped.some((s) =>
          s.startsWith('openai/gpt-4o: 127,900 input + 256 output tokens exceed the 128,000-token context window'),
        ),
        result.skipped.join('\n'),
      );
      assert.ok(result.rows.some((r) => r.target.startsWith('google/')));
    });

    it('uses a calibrated profile where one exists and says where each row’s latency comes from', () => {
      const calibration = { ttftBaseMs: 40, msPerInputToken: 0.01, tpotMs: 12.5, date: '2026-11-01' };
      const result = compareTargets({
        tables: builtin,
        profile: resolveProfile(),
        countTokens: fixedTokens(1000),
        ...(model ? { model } : {}),
        calibrationFor: (id) => (id === 'openai/gpt-4o' ? calibration : undefined),
      });
      const byId = (id: string) => result.rows.find((r) => r.target === id);
      assert.deepEqual(
        [byId('openai/gpt-4o')?.calibrated, byId('openai/gpt-4o')?.latencyBasis, byId('openai/gpt-4o')?.tpotMs],
        [true, 'calibrated', 12.5],
      );
      assert.equal(
        byId('openai/gpt-4o-mini')?.latencyBasis,
        builtin.providers.get('openai/gpt-4o-mini')?.latency.basis,
      );
      assert.equal(byId('llama-3.1-70b@4xh100-sxm:fp8+vllm')?.latencyBasis, 'modelled');
    });

    it('without an open-weight model: providers only, and the assumptions say how to add self-hosted rows', () => {
      const result = compareTargets({ tables: builtin, profile: resolveProfile(), countTokens: fixedTokens(500) });
      assert.ok(result.rows.length > 0 && result.rows.every((r) => r.kind === 'provider'));
      assert.equal(result.model, null);
      assert.ok(result.assumptions.some((a) => a.includes('--model')));
      assert.equal(
        cheapestMeetingLine({ ...result, rows: result.rows.map((r) => ({ ...r, meetsSlo: false })) }),
        'No target meets the interactive SLO for this prompt',
      );
    });
  });
});
