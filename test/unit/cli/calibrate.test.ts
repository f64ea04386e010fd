import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { profileTtftMs } from '../../../src/core/calibrate/predict';
import { formatMs } from '../../../src/core/format';
import { basisTokens, parseCalibrationFile, type CalibrationFile } from '../../../src/core/calibrate/profileFile';
import { startSimulator, type RunningSimulator } from '../../../src/core/sim/server';
import { lockstepClock } from '../helpers/lockstepClock';
import { memoryIo } from '../helpers/memoryIo';

/** 0.2 ms per prompt character (the simulator's tokens) after 5 ms, 1 ms per output token. */
const PER_TOKEN = 0.2;
const BASE_MS = 5;

describe('prompt-lens calibrate and estimate --calibration', () => {
  let sim: RunningSimulator;
  const files: Record<string, string> = {
    'p.prompt': `system:\nYou are brief.\nuser:\n${'Tell me about rivers and their deltas. '.repeat(60)}`,
  };
  let profile: CalibrationFile;
  // The simulator and the CLI share virtual time: the TTFTs measured are the latency model's exactly.
  const clock = lockstepClock();
  before(async () => {
    sim = await startSimulator({
      latency: { prefillMs: (n) => BASE_MS + PER_TOKEN * n, tpotMs: () => 1 },
      tokenize: (t) => Array.from(t, (c) => c.charCodeAt(0)),
      clock: clock.sim,
    });
  });
  after(() => sim.close());

  const calibrate = (...extra: string[]) => {
    const io = Object.assign(memoryIo(files), { now: clock.now });
    const run = runCli(
      [
        'calibrate',
        'p.prompt',
        '--base-url',
        sim.url,
        '--model',
        'm',
        '--requests',
        '4',
        '--out',
        '/profile.json',
        ...extra,
      ],
      io,
    );
    return run.then((code) => ({ code, io }));
  };

  it("fits the endpoint's reported tokens, prints the fit and residuals, and writes a profile that validates", async () => {
    const { code, io } = await calibrate('--lengths', '0.25,0.5,1', '--max-tokens', '4');
    assert.equal(code, 0, io.stderr);
    const loaded = parseCalibrationFile(files['/profile.json']!, 'profile.json');
    assert.ok(loaded.ok, JSON.stringify(loaded));
    profile = loaded.value;
    assert.equal(profile.tokens.basis, 'usage');
    assert.equal(profile.target, undefined);
    assert.equal(profile.endpoint.baseUrl, sim.url);
    // On virtual time every TTFT is the model's 5 ms + 0.2 ms per endpoint token: the fit recovers both, exactly.
    assert.ok(Math.abs(profile.fit.b - PER_TOKEN) < 1e-9, `slope ${profile.fit.b}`);
    assert.ok(Math.abs(profile.fit.a - BASE_MS) < 1e-6, `intercept ${profile.fit.a}`);
    assert.ok(profile.fit.r2 > 0.999999, `R² ${profile.fit.r2}`);
    assert.ok(profile.fit.r2Requests! > 0.999999, `R² over requests ${profile.fit.r2Requests}`);
    assert.ok(Math.abs(profile.profile.tpotMs - 1) < 1e-9, `TPOT ${profile.profile.tpotMs}`);
    assert.ok(clock.readings > 0, 'the CLI read the shared clock');
    assert.equal(profile.lengths.length, 3);
    assert.match(
      io.stdout,
      /TTFT ≈ .*\(linear; a [-\d.]+, b [\d.]+; R² [\d.]+ at the medians, [\d.]+ over single requests, RMSE/,
    );
    // On virtual time the four requests of a length take the same time: the spread is the median, twice.
    const rows = profile.lengths.map((l) => {
      const ms = formatMs(l.medianTtftMs);
      return `${ms}   ${`${ms.split(' ')[0]}–${ms}`.padStart(15)}   `;
    });
    for (const row of rows) assert.ok(io.stdout.includes(row), `${row} in\n${io.stdout}`);
    assert.match(io.stdout, /25%\s+\d+\s+\d+\s+4\/4\s+[\d.]+ ms\s+[\d.]+–[\d.]+ ms\s+[\d.]+ ms\s+[+-][\d.]+ ms/);
    assert.match(io.stdout, /Wrote \/profile\.json/);
  });

  it('predicts from the profile alone, in endpoint tokens with --tokens, and says what it cannot model', async () => {
    files['/profile.json'] ??= JSON.stringify(profile);
    const io = memoryIo(files);
    assert.equal(
      await runCli(['estimate', '--tokens', '3000', '--calibration', '/profile.json', '--json'], io),
      0,
      io.stderr,
    );
    const json = JSON.parse(io.stdout) as { target: null; coldTtftMs: number; e2eMs: number; notes: string[] };
    assert.equal(json.target, null);
    assert.ok(Math.abs(json.coldTtftMs - profileTtftMs(profile.profile, 3000)) < 1e-9);
    assert.match(json.notes.join('\n'), /beyond the longest calibrated length/);
    assert.match(json.notes.join('\n'), /linear fit, R² 1\.000 at the medians, 1\.00 over single requests, n = /);
    const text = memoryIo(files);
    assert.equal(await runCli(['estimate', 'p.prompt', '--calibration', '/profile.json'], text), 0, text.stderr);
    const requests = profile.lengths.reduce((n, l) => n + l.requests - l.failed, 0);
    assert.ok(requests > 0);
    const corrected = new RegExp(
      String.raw`calibrated profile, no target\): ([\d,]+) input tokens \(endpoint tokens: ([\d,]+) \S+ tokens corrected from ${requests} requests \(billed ≈ [\d.]+ × local [+−] [\d.]+\)\)`,
    );
    const [, billed, local] = corrected.exec(text.stdout) ?? assert.fail(text.stdout);
    const n = (s: string | undefined) => Number(s!.replaceAll(',', ''));
    assert.equal(n(billed), basisTokens(profile, n(local)));
    const queue = memoryIo(files);
    assert.equal(
      await runCli(['estimate', '--tokens', '10', '--calibration', '/profile.json', '--concurrency', '4'], queue),
      2,
    );
    assert.match(queue.stderr, /names no target, so nothing models queueing/);
  });

  it('with a target, the estimation engine uses the profile; a profile for another target is refused', async () => {
    const mapped = { ...profile, target: 'llama-3.1-8b@h100-sxm:bf16' };
    const io = memoryIo({ ...files, '/t.json': JSON.stringify(mapped) });
    assert.equal(
      await runCli(['estimate', '--tokens', '1000', '--calibration', '/t.json', '--json'], io),
      0,
      io.stderr,
    );
    const json = JSON.parse(io.stdout) as {
      target: string;
      calibrated: boolean;
      coldTtftMs: { p50: number };
      cost: unknown;
    };
    assert.equal(json.target, 'llama-3.1-8b@h100-sxm:bf16+vllm');
    assert.equal(json.calibrated, true);
    assert.ok(Math.abs(json.coldTtftMs.p50 - profileTtftMs(profile.profile, 1000)) < 1e-6);
    assert.ok(json.cost, 'a target brings its cost');
    const other = memoryIo({ ...files, '/t.json': JSON.stringify(mapped) });
    const code = await runCli(
      [
        'estimate',
        '--tokens',
        '1000',
        '--calibration',
        '/t.json',
        '--model',
        'llama-3.1-70b',
        '--hardware',
        'h100-sxm',
        '--gpus',
        '4',
      ],
      other,
    );
    assert.equal(code, 2);
    assert.match(other.stderr, /calibrates llama-3\.1-8b@h100-sxm:bf16, not llama-3\.1-70b@4xh100-sxm/);
    // A profile's id without +ENGINE names the default engine; the same deployment on another engine is not it.
    const engine = memoryIo({ ...files, '/t.json': JSON.stringify(mapped) });
    const args = ['estimate', '--tokens', '1000', '--calibration', '/t.json', '--target'];
    assert.equal(await runCli([...args, 'llama-3.1-8b@h100-sxm:bf16+trtllm'], engine), 2);
    assert.match(engine.stderr, /calibrates llama-3\.1-8b@h100-sxm:bf16, not llama-3\.1-8b@h100-sxm:bf16\+trtllm/);
    assert.equal(
      await runCli(
        [...args, 'llama-3.1-8b@h100-sxm:bf16+vllm'],
        memoryIo({ ...files, '/t.json': JSON.stringify(mapped) }),
      ),
      0,
    );
  });

  it('names the problem with a bad profile or bad flags, and writes nothing', async () => {
    const bad = memoryIo({ '/bad.json': JSON.stringify({ ...profile, profile: { ...profile.profile, tpotMs: 0 } }) });
    assert.equal(await runCli(['estimate', '--tokens', '10', '--calibration', '/bad.json'], bad), 2);
    assert.match(bad.stderr, /\/bad\.json: not a calibration profile: profile\.tpotMs/);
    const missing = memoryIo({});
    assert.equal(await runCli(['estimate', '--tokens', '10', '--calibration', '/none.json'], missing), 2);
    assert.match(missing.stderr, /cannot read calibration profile \/none\.json: no such file/);
    for (const [flags, message] of [
      [['--lengths', '0.5,2'], /--lengths: must be a comma-separated list of shares/],
      [['--lengths', '1,1'], /--lengths: needs at least two different lengths/],
      [['--requests', '0'], /--requests: must be at least 1/],
    ] as const) {
      delete files['/profile.json'];
      const { code, io } = await calibrate(...flags);
      assert.equal(code, 2, flags.join(' '));
      assert.match(io.stderr, message);
      assert.equal(files['/profile.json'], undefined);
    }
    const noOut = memoryIo(files);
    assert.equal(await runCli(['calibrate', 'p.prompt', '--base-url', sim.url, '--model', 'm'], noOut), 2);
    assert.match(noOut.stderr, /--out PROFILE\.json is required/);
  });

  it('refuses to write a profile when no request succeeds, saying why', async () => {
    const io = memoryIo(files);
    delete files['/dead.json'];
    const code = await runCli(
      [
        'calibrate',
        'p.prompt',
        '--base-url',
        'http://127.0.0.1:9/v1',
        '--model',
        'm',
        '--requests',
        '1',
        '--out',
        '/dead.json',
      ],
      io,
    );
    assert.equal(code, 1);
    assert.match(
      io.stderr,
      /calibration of command line failed: too few successful requests .*\(.*connect|ECONNREFUSED/i,
    );
    assert.equal(files['/dead.json'], undefined);
  });
});
