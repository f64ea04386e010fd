import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import {
  CALIBRATION_MAX_AGE_DAYS,
  Calibrations,
  type StoredCalibration,
} from '../../../src/extension/bench/calibrations';

function memento(): vscode.Memento {
  const data = new Map<string, unknown>();
  return {
    keys: () => [...data.keys()],
    get: ((k: string, d?: unknown) => (data.has(k) ? data.get(k) : d)) as vscode.Memento['get'],
    update: async (k, v) => void data.set(k, v),
  };
}

const stored = (date: string): StoredCalibration => ({
  endpoint: 'vllm',
  profile: { ttftBaseMs: 20, msPerInputToken: 0.05, tpotMs: 12, date },
  r2: 0.99,
  rmseMs: 3,
  model: 'linear',
  samples: 12,
});

describe('calibration profiles', () => {
  const now = Date.parse('2026-11-30T12:00:00Z');

  it('uses a recent profile and ignores a stale one, saying why', async () => {
    const calibrations = new Calibrations(memento());
    await calibrations.set('a@h100-sxm:bf16', stored('2026-11-20'));
    await calibrations.set('b@h100-sxm:bf16', stored('2026-09-01'));
    assert.equal(calibrations.profile('a@h100-sxm:bf16', now)?.tpotMs, 12);
    assert.equal(calibrations.profile('b@h100-sxm:bf16', now), undefined);
    const notes = calibrations.staleNotes(['a@h100-sxm:bf16', 'b@h100-sxm:bf16', 'c'], now);
    assert.equal(notes.length, 1);
    assert.match(
      notes[0]!,
      new RegExp(`b@h100-sxm:bf16 \\(2026-09-01, from vllm\\) is older than ${CALIBRATION_MAX_AGE_DAYS} days`),
    );
  });

  it('ignores stored entries that do not validate', async () => {
    const state = memento();
    await state.update('promptLens.calibrations', {
      x: { endpoint: 'e', profile: { tpotMs: -1 } },
      y: stored('2026-11-29'),
    });
    const calibrations = new Calibrations(state);
    assert.equal(calibrations.get('x'), undefined);
    assert.ok(calibrations.get('y'));
  });
});
