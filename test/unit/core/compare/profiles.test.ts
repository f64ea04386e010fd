import assert from 'node:assert/strict';
import { parseSloSettings, PROFILES, promptSloSettings, resolveProfile } from '../../../../src/core/compare';

describe('compare: workload profiles', () => {
  it('interactive is TTFT ≤ 500 ms and TPOT ≤ 30 ms ranked per 1,000 calls; batch has no latency SLO and ranks per M output tokens', () => {
    assert.deepEqual(
      [PROFILES.interactive.ttftMs, PROFILES.interactive.tpotMs, PROFILES.interactive.rankBy],
      [500, 30, 'costPer1kCalls'],
    );
    assert.deepEqual(
      [PROFILES.batch.ttftMs, PROFILES.batch.tpotMs, PROFILES.batch.rankBy],
      [null, null, 'costPerMOutput'],
    );
    assert.ok(PROFILES.batch.concurrency > PROFILES.interactive.concurrency);
  });

  it('overrides apply field by field; a changed limit makes the profile custom, the ranking stays the base profile’s', () => {
    assert.equal(resolveProfile().name, 'interactive');
    assert.equal(resolveProfile({ concurrency: 32 }).name, 'interactive');
    const custom = resolveProfile({ profile: 'interactive', ttftMs: 2000, concurrency: 4, outputTokens: 64 });
    assert.deepEqual(custom, {
      name: 'custom',
      ttftMs: 2000,
      tpotMs: 30,
      concurrency: 4,
      outputTokens: 64,
      rankBy: 'costPer1kCalls',
    });
    const batchTpot = resolveProfile({ profile: 'batch', tpotMs: 100 });
    assert.deepEqual(
      [batchTpot.name, batchTpot.ttftMs, batchTpot.tpotMs, batchTpot.rankBy],
      ['custom', null, 100, 'costPerMOutput'],
    );
    assert.equal(resolveProfile({ ttftMs: null }).ttftMs, null);
  });

  it('settings are validated with messages that name the field', () => {
    assert.deepEqual(parseSloSettings({ ttftMs: 800, tpotMs: 40, concurrency: 16, outputTokens: 300 }).problems, []);
    const bad = parseSloSettings({ ttftMs: -1, concurrency: 2.5, outputTokens: 'many', extra: 1 });
    assert.equal(bad.slo, undefined);
    const text = bad.problems.join('\n');
    assert.match(text, /^ttftMs: must be greater than 0$/m);
    assert.match(text, /^concurrency: must be a whole number$/m);
    assert.match(text, /^outputTokens: must be a number$/m);
    assert.match(text, /extra/);
    assert.match(
      parseSloSettings({ profile: 'offline' }).problems.join(),
      /profile: must be one of interactive, batch/,
    );
    assert.match(parseSloSettings('fast').problems.join(), /\(slo\)/);
  });

  it('a prompt file’s front matter may name its profile, by name or as an SLO object', () => {
    assert.deepEqual(promptSloSettings('---\nmodel: gpt-4o\nprofile: batch\n---\nHello'), {
      slo: { profile: 'batch' },
      problems: [],
    });
    assert.deepEqual(promptSloSettings('---\nprofile:\n  ttftMs: 800\n  concurrency: 4\n---\nHello').slo, {
      ttftMs: 800,
      concurrency: 4,
    });
    assert.deepEqual(promptSloSettings('---\nmodel: gpt-4o\n---\nHello'), { problems: [] });
    assert.deepEqual(promptSloSettings('No front matter'), { problems: [] });
    assert.deepEqual(
      promptSloSettings('---\nprofile: [unclosed\n---\nHello'),
      { problems: [] },
      'YAML errors are the parser’s to report',
    );
    assert.deepEqual(promptSloSettings('---\nprofile:\n  tpotMs: 0\n---\nHello').problems, [
      'front matter profile.tpotMs: must be greater than 0',
    ]);
  });
});
