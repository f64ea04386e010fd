import assert from 'node:assert/strict';
import { profileTtftMs } from '../../../../src/core/calibrate/predict';
import {
  basisTokens,
  buildCalibrationFile,
  calibrationFileText,
  localProfile,
  parseCalibrationFile,
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
