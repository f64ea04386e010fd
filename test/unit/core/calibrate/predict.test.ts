import assert from 'node:assert/strict';
import { calibratedLatency, profileTtftMs } from '../../../../src/core/calibrate/predict';

describe('what a calibration profile predicts for one request', () => {
  const profile = { ttftBaseMs: 10, msPerInputToken: 0.5, tpotMs: 4, date: '2026-12-01' };

  it('prefills only the uncached tokens, and adds TPOT per output token', () => {
    assert.deepEqual(calibratedLatency(profile, { inputTokens: 100, cachedTokens: 40, outputTokens: 10 }), {
      inputTokens: 100,
      cachedTokens: 40,
      outputTokens: 10,
      coldTtftMs: 10 + 0.5 * 100,
      ttftMs: 10 + 0.5 * 60,
      tpotMs: 4,
      e2eMs: 10 + 0.5 * 60 + 4 * 10,
    });
  });

  it('caps the cached tokens at the prompt, so a whole-prompt hit costs the base only', () => {
    const hit = calibratedLatency(profile, { inputTokens: 100, cachedTokens: 150, outputTokens: 0 });
    assert.deepEqual([hit.cachedTokens, hit.ttftMs, hit.coldTtftMs, hit.e2eMs], [100, 10, 60, 10]);
  });

  it('adds the n² term and never predicts below 0', () => {
    assert.equal(profileTtftMs({ ...profile, msPerInputToken2: 1e-3 }, 1000), 10 + 500 + 1000);
    assert.equal(profileTtftMs({ ...profile, ttftBaseMs: -50 }, 20), 0);
  });
});
