import assert from 'node:assert/strict';
import { profileTtftMs } from '../../../../src/core/calibrate/predict';
import {
  basisTokens,
  buildCalibrationFile,
  calibrationFileText,
  localProfile,
  parseCalibrationFile,
  tokenCorrection,
  type CalibrationInput,
  type LengthRecord,
} from '../../../../src/core/calibrate/profileFile';

/** An endpoint counting 3 tokens per local token plus a 20-token template, prefilling 0.3 ms/token after 8 ms. */
const length = (fraction: number, local: number, usage = true): LengthRecord => ({
  fraction,
  localTokens: local,
  endpointTokens: usage ? 20 + 3 * local : undefined,
  ttftMs: [-1, 0, 1].map((e) => 8 + 0.3 * (20 + 3 * local) + e),
  requests: 3,
  failed: 0,
});

const input = (lengths: LengthRecord[]): CalibrationInput => ({
  endpoint: { name: 'engine', kind: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
  target: 'llama-3.1-8b@h100-sxm:bf16',
  localTokenizer: 'llama3',
  lengths,
  tpotMs: [4, 5, 6],
  date: '2026-12-01',
});

describe('calibration profile file', () => {
  it("fits in the endpoint's tokens when every length reported usage, with the map from local counts", () => {
    const built = buildCalibrationFile(input([length(0.25, 100), length(0.5, 200), length(1, 400)]));
    assert.ok(built.ok);
    const { file } = built;
    assert.equal(file.tokens.basis, 'usage');
    assert.ok(
      Math.abs(file.tokens.tokenMap.intercept - 20) < 1e-6 && Math.abs(file.tokens.tokenMap.perLocalToken - 3) < 1e-9,
    );
    assert.ok(Math.abs(file.profile.msPerInputToken - 0.3) < 1e-9, JSON.stringify(file.profile));
    assert.ok(Math.abs(file.profile.ttftBaseMs - 8) < 1e-6);
    assert.equal(file.profile.tpotMs, 5);
    assert.deepEqual(
      file.lengths.map((l) => l.tokens),
      [320, 620, 1220],
    );
    assert.ok(file.lengths.every((l) => Math.abs(l.residualMs) < 1e-6));
    assert.equal(basisTokens(file, 800), 2420);
  });

  it('falls back to the local count for every length when one length lacked usage, never a mix', () => {
    const built = buildCalibrationFile(input([length(0.25, 100), length(0.5, 200, false), length(1, 400)]));
    assert.ok(built.ok);
    assert.equal(built.file.tokens.basis, 'counted');
    assert.deepEqual(built.file.tokens.tokenMap, { intercept: 0, perLocalToken: 1 });
    assert.deepEqual(
      built.file.lengths.map((l) => l.tokens),
      [100, 200, 400],
    );
    assert.ok(Math.abs(built.file.profile.msPerInputToken - 0.9) < 1e-9);
  });

  it('words the per-endpoint correction with the successful requests it was fitted on; none without usage', () => {
    const failedOne = { ...length(1, 400), failed: 1, ttftMs: [8 + 0.3 * 1220] };
    const built = buildCalibrationFile(input([length(0.25, 100), length(0.5, 200), failedOne]));
    assert.ok(built.ok);
    assert.equal(tokenCorrection(built.file), 'corrected from 8 requests (billed ≈ 3.0000 × local + 20.0)');
    const local = buildCalibrationFile(input([length(0.25, 100), length(0.5, 200, false), length(1, 400)]));
    assert.ok(local.ok);
    assert.equal(tokenCorrection(local.file), undefined);
  });

  it('in local tokens predicts what the endpoint-token fit predicts through the map, quadratic term included', () => {
    const file = {
      tokens: { basis: 'usage' as const, localTokenizer: 'llama3', tokenMap: { intercept: 17, perLocalToken: 1.3 } },
      profile: { ttftBaseMs: 12, msPerInputToken: 0.2, msPerInputToken2: 3e-6, tpotMs: 9, date: '2026-12-01' },
    };
    const local = localProfile(file);
    for (const n of [0, 50, 1000, 30000]) {
      const viaMap = profileTtftMs(file.profile, 17 + 1.3 * n);
      assert.ok(Math.abs(profileTtftMs(local, n) - viaMap) < 1e-6 * viaMap, `${n}`);
    }
    assert.equal(local.tpotMs, 9);
  });

  it('says why a calibration cannot be built', () => {
    const one = buildCalibrationFile(input([length(1, 400)]));
    assert.ok(!one.ok && /distinct lengths/.test(one.error));
    const noTpot = buildCalibrationFile({ ...input([length(0.5, 200), length(1, 400)]), tpotMs: [] });
    assert.ok(!noTpot.ok && /TPOT/.test(noTpot.error));
  });

  it('round-trips through its text, and names the problem in a file that is not one', () => {
    const built = buildCalibrationFile(input([length(0.25, 100), length(0.5, 200), length(1, 400)]));
    assert.ok(built.ok);
    const back = parseCalibrationFile(calibrationFileText(built.file), 'p.json');
    assert.deepEqual(back, { ok: true, value: built.file });

    const bad = (value: unknown) => parseCalibrationFile(JSON.stringify(value), 'p.json');
    const notJson = parseCalibrationFile('{', 'p.json');
    assert.ok(!notJson.ok && /^p\.json: not valid JSON/.test(notJson.error));
    const other = bad({ endpoints: [] });
    assert.ok(
      !other.ok && /format: must be "prompt-latency-lens\/calibration"/.test(other.error),
      JSON.stringify(other),
    );
    const newer = bad({ ...built.file, version: 2 });
    assert.ok(!newer.ok && /version: must be 1/.test(newer.error));
    const typo = bad({ ...built.file, profile: { ...built.file.profile, msPerInputTokens: 1 } });
    assert.ok(!typo.ok && /profile/.test(typo.error), JSON.stringify(typo));
    const unknown = bad({ ...built.file, apiKey: 'sk-x' });
    assert.ok(!unknown.ok && /apiKey/.test(unknown.error));
    const negative = bad({ ...built.file, profile: { ...built.file.profile, tpotMs: -1 } });
    assert.ok(!negative.ok && /profile\.tpotMs/.test(negative.error));
  });
});

describe('calibration profile file: the values it records', () => {
  const linear = input([length(0.25, 100), length(0.5, 200), length(1, 400)]);

  it('leaves out a length with no successful request, so the others keep their basis', () => {
    const failed: LengthRecord = {
      fraction: 0.5,
      localTokens: 200,
      endpointTokens: undefined,
      ttftMs: [],
      requests: 3,
      failed: 3,
    };
    const built = buildCalibrationFile(input([length(0.25, 100), failed, length(1, 400)]));
    assert.ok(built.ok);
    assert.equal(built.file.tokens.basis, 'usage');
    assert.deepEqual(
      built.file.lengths.map((l) => [l.fraction, l.tokens, l.requests, l.failed]),
      [
        [0.25, 320, 3, 0],
        [1, 1220, 3, 0],
      ],
    );
    // Two distinct lengths are enough for the token map's line (not the one-length ratio).
    assert.ok(Math.abs(built.file.tokens.tokenMap.intercept - 20) < 1e-6, JSON.stringify(built.file.tokens));
    assert.ok(Math.abs(built.file.tokens.tokenMap.perLocalToken - 3) < 1e-9);
  });

  it('counts the successful requests when too few lengths remain to fit', () => {
    const one = buildCalibrationFile(input([length(1, 400), { ...length(0.5, 200), ttftMs: [] }]));
    assert.deepEqual(one, { ok: false, error: 'too few successful requests at distinct lengths (3) to fit' });
  });

  it('refuses a TTFT that falls with prompt length, giving the slope', () => {
    const falling = (fraction: number, local: number): LengthRecord => ({
      ...length(fraction, local, false),
      ttftMs: [100 - 0.25 * local],
    });
    const built = buildCalibrationFile(input([falling(0.5, 200), falling(1, 400)]));
    assert.deepEqual(built, {
      ok: false,
      error:
        'TTFT did not grow with prompt length (slope -0.2500 ms per token): the measurement is dominated by something else',
    });
    const flat = buildCalibrationFile(
      input([
        { ...length(0.5, 200, false), ttftMs: [50] },
        { ...length(1, 400, false), ttftMs: [50] },
      ]),
    );
    assert.ok(
      !flat.ok && flat.error.startsWith('TTFT did not grow with prompt length (slope 0.0000'),
      JSON.stringify(flat),
    );
  });

  it('refuses a rise of TTFT that the noise of the medians could make, giving both', () => {
    // An endpoint whose TTFT does not depend on these lengths: ±100 ms of scatter, medians 400 and 410 ms.
    // Each median's standard error 1.2533 × 1.4826 × 50 / √5 = 41.55 ms (median absolute deviation 50);
    // three standard errors of the difference: 3 × √2 × 41.55 = 176.3 ms.
    const noisy = (fraction: number, local: number, base: number): LengthRecord => ({
      ...length(fraction, local, false),
      ttftMs: [-100, 0, 100, -50, 50].map((e) => base + e),
      requests: 5,
    });
    const built = buildCalibrationFile(input([noisy(0.5, 200, 400), noisy(1, 400, 410)]));
    assert.deepEqual(built, {
      ok: false,
      error:
        'TTFT rose 10.0 ms from the shortest length to the longest, within the noise of their medians (three standard errors: 176.3 ms): measure more requests a length, or a longer prompt',
    });
    // The same rise with a twentieth of the scatter is beyond the noise (8.8 ms): the profile is written.
    const quiet = (fraction: number, local: number, base: number): LengthRecord => ({
      ...noisy(fraction, local, base),
      ttftMs: [-5, 0, 5, -2.5, 2.5].map((e) => base + e),
    });
    assert.ok(buildCalibrationFile(input([quiet(0.5, 200, 400), quiet(1, 400, 410)])).ok);
  });

  it('names its target only when it has one, and the n² coefficient only for a quadratic fit', () => {
    const built = buildCalibrationFile(linear);
    assert.ok(built.ok);
    assert.equal(built.file.target, 'llama-3.1-8b@h100-sxm:bf16');
    assert.equal(built.file.fit.model, 'linear');
    assert.ok(!('c' in built.file.fit), JSON.stringify(built.file.fit));
    assert.ok(!('check' in built.file));
    assert.ok(!('msPerInputToken2' in localProfile(built.file)), JSON.stringify(localProfile(built.file)));
    const { target: _, ...untargeted } = linear;
    const anonymous = buildCalibrationFile(untargeted);
    assert.ok(anonymous.ok && !('target' in anonymous.file), JSON.stringify(anonymous));

    // 5 ms + 0.01 ms/token + 1e-4 ms/token²: attention dominates at 2,000 tokens.
    const curved = (fraction: number, n: number): LengthRecord => ({
      fraction,
      localTokens: n,
      endpointTokens: undefined,
      ttftMs: [5 + 0.01 * n + 1e-4 * n * n],
      requests: 1,
      failed: 0,
    });
    const quad = buildCalibrationFile(
      input([curved(0.25, 250), curved(0.5, 500), curved(0.75, 1000), curved(1, 2000)]),
    );
    assert.ok(quad.ok);
    assert.equal(quad.file.fit.model, 'quadratic');
    assert.ok(Math.abs(quad.file.fit.c! - 1e-4) < 1e-9, JSON.stringify(quad.file.fit));
    assert.ok(Math.abs(localProfile(quad.file).msPerInputToken2! - 1e-4) < 1e-9);
  });

  it('maps local to endpoint tokens by a ratio when the line through the lengths does not rise', () => {
    // Endpoint tokens 300, 250, 300 at local 100, 200, 300: the line's slope is 0, so the ratio 850 / 600.
    const at = (fraction: number, local: number, endpoint: number): LengthRecord => ({
      fraction,
      localTokens: local,
      endpointTokens: endpoint,
      ttftMs: [8 + 0.3 * endpoint],
      requests: 1,
      failed: 0,
    });
    const flat = buildCalibrationFile(input([at(0.25, 100, 300), at(0.5, 200, 250), at(1, 300, 300)]));
    assert.ok(flat.ok);
    assert.deepEqual(flat.file.tokens.tokenMap, { intercept: 0, perLocalToken: 850 / 600 });
    const falling = buildCalibrationFile(input([at(0.5, 100, 300), at(1, 200, 250)]));
    assert.ok(falling.ok);
    assert.deepEqual(falling.file.tokens.tokenMap, { intercept: 0, perLocalToken: 550 / 300 });
  });

  it('checks a held-out prompt against the prediction from its reported and its mapped tokens', () => {
    const check = (over: Partial<LengthRecord> = {}) => ({ ...length(1, 300), prompt: 'other.prompt', ...over });
    const usage = buildCalibrationFile({ ...linear, check: check() });
    assert.ok(usage.ok);
    const { profile } = usage.file;
    // Reported 920 tokens; 300 local tokens map to 20 + 3 × 300 = 920 as well.
    assert.deepEqual(usage.file.check, {
      prompt: 'other.prompt',
      localTokens: 300,
      tokens: 920,
      mappedTokens: 920,
      requests: 3,
      failed: 0,
      medianTtftMs: 8 + 0.3 * 920,
      predictedTtftMs: profileTtftMs(profile, 920),
      predictedFromLocalMs: profileTtftMs(profile, 920),
    });
    assert.ok(Math.abs(usage.file.check!.predictedTtftMs - 284) < 1e-6);

    // No usage on the check: its tokens are the mapped count. No success: no median.
    const unreported = buildCalibrationFile({
      ...linear,
      check: check({ endpointTokens: undefined, ttftMs: [], failed: 3 }),
    });
    assert.ok(unreported.ok);
    assert.deepEqual(
      [unreported.file.check!.tokens, unreported.file.check!.medianTtftMs, unreported.file.check!.failed],
      [920, null, 3],
    );

    // Counted basis: the check's tokens are its local count, whatever the endpoint said.
    const counted = buildCalibrationFile({
      ...input([length(0.25, 100, false), length(1, 400, false)]),
      check: check({ endpointTokens: 5000 }),
    });
    assert.ok(counted.ok);
    assert.deepEqual([counted.file.check!.tokens, counted.file.check!.mappedTokens], [300, 300]);
    assert.equal(counted.file.check!.predictedTtftMs, profileTtftMs(counted.file.profile, 300));
  });
});
