import assert from 'node:assert/strict';
import { fitTtft, MIN_R2, toProfile } from '../../../../src/core/calibrate/fit';
import { promptPrefix } from '../../../../src/core/calibrate/prefixes';

const at = (lengths: number[], ttft: (n: number) => number, noise: number[] = [0]) =>
  lengths.map((n) => ({ tokens: n, ttftMs: noise.map((e) => ttft(n) + e) }));

describe('calibration fit', () => {
  it('recovers a linear TTFT law exactly', () => {
    const fit = fitTtft(at([1000, 2000, 4000, 8000], (n) => 30 + 0.05 * n))!;
    assert.equal(fit.model, 'linear');
    assert.ok(Math.abs(fit.a - 30) < 1e-6 && Math.abs(fit.b - 0.05) < 1e-9, JSON.stringify(fit));
    assert.ok(fit.r2 > 0.999999);
    assert.ok(fit.residuals.every((r) => Math.abs(r.residualMs) < 1e-6));
  });

  it('keeps the quadratic term when attention dominates at long prompts', () => {
    const fit = fitTtft(at([2000, 8000, 16000, 32000, 64000], (n) => 20 + 0.02 * n + 2e-7 * n * n))!;
    assert.equal(fit.model, 'quadratic');
    assert.ok(Math.abs((fit.c ?? 0) - 2e-7) < 1e-10);
  });

  it('keeps the quadratic with three lengths only when the curvature is beyond the noise of the medians', () => {
    const curved = (n: number) => 10 + 0.1 * n + 1e-4 * n * n;
    // Curvature at these lengths misses a straight line by ≈ 8 ms; ±1 ms of scatter is far smaller…
    const clear = fitTtft(at([250, 500, 1000], curved, [-1, 0, 1, -0.5, 0.5]))!;
    assert.equal(clear.model, 'quadratic');
    // …±40 ms of scatter is not: a line is all the data supports.
    const noisy = fitTtft(at([250, 500, 1000], curved, [-40, 0, 40, -20, 20]))!;
    assert.equal(noisy.model, 'linear');
  });

  it('fits through the medians, so one load spike does not bend the line', () => {
    const lengths = at([100, 200, 400], (n) => 5 + 0.4 * n, [-1, 0, 1, 0.5, -0.5]);
    lengths[2]!.ttftMs = [...lengths[2]!.ttftMs.slice(1), 5 + 0.4 * 400 + 900];
    const fit = fitTtft(lengths)!;
    assert.ok(Math.abs(fit.b - 0.4) < 0.01, `slope ${fit.b}`);
    assert.ok(
      fit.residuals.every((r) => Math.abs(r.residualMs) < 2),
      JSON.stringify(fit.residuals),
    );
    assert.ok(fit.r2 < 0.9, 'R² over all samples still shows the spike');
  });

  it('reports a poor fit through R² so it is not used', () => {
    const fit = fitTtft([
      { tokens: 1000, ttftMs: [500, 50] },
      { tokens: 2000, ttftMs: [300, 60] },
    ])!;
    assert.ok(fit.r2 < MIN_R2, `r2 ${fit.r2}`);
  });

  it('needs two distinct lengths', () => {
    assert.equal(fitTtft([{ tokens: 10, ttftMs: [5, 6] }]), undefined);
    assert.equal(
      fitTtft([
        { tokens: 10, ttftMs: [5] },
        { tokens: 20, ttftMs: [] },
      ]),
      undefined,
    );
  });

  it('becomes a calibration profile for the estimation engine', () => {
    const fit = fitTtft(at([1000, 3000], (n) => 10 + 0.1 * n))!;
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
