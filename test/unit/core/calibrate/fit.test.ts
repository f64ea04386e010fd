import assert from 'node:assert/strict';
import { fitTtft, MIN_R2, toProfile } from '../../../../src/core/calibrate/fit';
import { promptPrefix } from '../../../../src/core/calibrate/prefixes';

describe('calibration fit', () => {
  it('recovers a linear TTFT law exactly', () => {
    const samples = [1000, 2000, 4000, 8000].map((n) => ({ inputTokens: n, ttftMs: 30 + 0.05 * n }));
    const fit = fitTtft(samples)!;
    assert.equal(fit.model, 'linear');
    assert.ok(Math.abs(fit.a - 30) < 1e-6 && Math.abs(fit.b - 0.05) < 1e-9, JSON.stringify(fit));
    assert.ok(fit.r2 > 0.999999);
  });

  it('keeps the quadratic term when attention dominates at long prompts', () => {
    const samples = [2000, 8000, 16000, 32000, 64000].map((n) => ({
      inputTokens: n,
      ttftMs: 20 + 0.02 * n + 2e-7 * n * n,
    }));
    const fit = fitTtft(samples)!;
    assert.equal(fit.model, 'quadratic');
    assert.ok(Math.abs((fit.c ?? 0) - 2e-7) < 1e-10);
  });

  it('reports a poor fit through R² so it is not used', () => {
    const fit = fitTtft([
      { inputTokens: 1000, ttftMs: 500 },
      { inputTokens: 1000, ttftMs: 50 },
      { inputTokens: 2000, ttftMs: 300 },
      { inputTokens: 2000, ttftMs: 60 },
    ])!;
    assert.ok(fit.r2 < MIN_R2, `r2 ${fit.r2}`);
  });

  it('needs two distinct lengths', () => {
    assert.equal(
      fitTtft([
        { inputTokens: 10, ttftMs: 5 },
        { inputTokens: 10, ttftMs: 6 },
      ]),
      undefined,
    );
  });

  it('becomes a calibration profile for the estimation engine', () => {
    const fit = fitTtft([1000, 3000].map((n) => ({ inputTokens: n, ttftMs: 10 + 0.1 * n })))!;
    const profile = toProfile(fit, 12, '2026-11-30');
    assert.equal(profile.tpotMs, 12);
    assert.ok(Math.abs(profile.ttftBaseMs - 10) < 1e-6);
    assert.equal(profile.msPerInputToken2, undefined);
  });
});

describe('calibration prompt prefixes', () => {
  const messages = [
    { role: 'system' as const, content: 'a'.repeat(60) },
    { role: 'user' as const, content: 'b'.repeat(40) },
  ];

  it('cuts the prompt to a share of its characters, in order', () => {
    const quarter = promptPrefix(messages, 0.25);
    assert.equal(quarter[0]!.content, 'a'.repeat(25));
    assert.equal(quarter.at(-1)!.role, 'user', 'the request must end with a user turn');
    const whole = promptPrefix(messages, 1);
    assert.deepEqual(whole, messages);
    const most = promptPrefix(messages, 0.8);
    assert.equal(most[1]!.content, 'b'.repeat(20));
  });

  it('rejects a fraction outside (0, 1]', () => {
    assert.throws(() => promptPrefix(messages, 0), RangeError);
    assert.throws(() => promptPrefix(messages, 1.5), RangeError);
  });
});
