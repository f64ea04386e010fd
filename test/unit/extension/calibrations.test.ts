import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { profileTtftMs } from '../../../src/core/calibrate/predict';
import type { CalibrationFile } from '../../../src/core/calibrate/profileFile';
import { CALIBRATION_MAX_AGE_DAYS, Calibrations } from '../../../src/extension/bench/calibrations';

function memento(): vscode.Memento {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: ((k: string, d?: unknown) => (data.has(k) ? data.get(k) : d)) as vscode.Memento['get'],
    update: async (k, v) => void data.set(k, v),
  };
}

const stored = (date: string, tokenMap = { intercept: 0, perLocalToken: 1 }): CalibrationFile => ({
  format: 'prompt-latency-lens/calibration',
  version: 1,
  endpoint: { name: 'vllm', kind: 'openai-chat', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' },
  tokens: { basis: 'usage', localTokenizer: 'llama3', tokenMap },
  profile: { ttftBaseMs: 20, msPerInputToken: 0.05, tpotMs: 12, date },
  fit: { model: 'linear', a: 20, b: 0.05, r2: 0.99, rmseMs: 3 },
  lengths: [
    {
      fraction: 0.5,
      localTokens: 500,
      tokens: 500,
      requests: 4,
      failed: 0,
      medianTtftMs: 45,
      fitTtftMs: 45,
      residualMs: 0,
    },
    {
      fraction: 1,
      localTokens: 1000,
      tokens: 1000,
      requests: 4,
      failed: 0,
      medianTtftMs: 70,
      fitTtftMs: 70,
      residualMs: 0,
    },
  ],
  tpotSamples: 8,
});

describe('calibration profiles', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');

  it('uses a recent profile and ignores a stale one, saying why', async () => {
    const calibrations = new Calibrations(memento());
    await calibrations.set('a@h100-sxm:bf16', stored('2026-11-20'));
    await calibrations.set('b@h100-sxm:bf16', stored('2026-09-01'));
    assert.equal(calibrations.profile('a@h100-sxm:bf16', now)?.tpotMs, 12);
    assert.equal(calibrations.profile('b@h100-sxm:bf16', now), undefined);
    assert.equal(
      calibrations.get('a@h100-sxm:bf16')?.target,
      'a@h100-sxm:bf16',
      'stored under the target it calibrates',
    );
    const notes = calibrations.staleNotes(['a@h100-sxm:bf16', 'b@h100-sxm:bf16', 'c'], now);
    assert.equal(notes.length, 1);
    assert.match(
      notes[0]!,
      new RegExp(`b@h100-sxm:bf16 \\(2026-09-01, from vllm\\) is older than ${CALIBRATION_MAX_AGE_DAYS} days`),
    );
  });

  it("hands estimates the profile in the target's own token count", async () => {
    const calibrations = new Calibrations(memento());
    await calibrations.set('a@h100-sxm:bf16', stored('2026-11-20', { intercept: 30, perLocalToken: 1.2 }));
    const local = calibrations.profile('a@h100-sxm:bf16', now)!;
    // 1,000 local tokens are 1,230 endpoint tokens: 20 + 0.05 × 1,230 = 81.5 ms.
    assert.ok(Math.abs(profileTtftMs(local, 1000) - 81.5) < 1e-9, JSON.stringify(local));
    assert.deepEqual(calibrations.profiles(now), { 'a@h100-sxm:bf16': local });
  });

  it('ignores stored entries that do not validate (the 0.1 shape included)', async () => {
    const state = memento();
    await state.update('promptLens.calibrations', {
      x: { endpoint: 'e', profile: { ttftBaseMs: 1, msPerInputToken: 1, tpotMs: 1, date: '2026-11-29' }, r2: 1 },
      y: stored('2026-11-29'),
    });
    const calibrations = new Calibrations(state);
    assert.equal(calibrations.get('x'), undefined);
    assert.ok(calibrations.get('y'));
  });
});
