// `bench --export artillery` end to end: the exported scenario run by the real `artillery run`
// (tools/artillery) against the simulator and against the real llama.cpp engine, its report imported
// back, and both compared with the built-in client's own run of the same options: the same request
// bodies (cold nonces blanked), the same counts, and medians within 10 %.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult, LevelResult } from '../../src/core/bench/result';
import { percentile } from '../../src/core/bench/stats';
import { linearLatencyModel } from '../../src/core/sim/latencyModel';
import { startSimulator, type RunningSimulator } from '../../src/core/sim/server';
import { artillery, cli, recordingProxy, withoutNonce, type Seen } from './artilleryHarness';
import { sharedEngine } from './shared';

// Long enough that a cold prefill dwarfs the timer noise of a loaded machine (~0.9 s on the
// simulator below, ~1 s on the engine at its ≈ 0.3 ms per token).
const SYSTEM = Array.from({ length: 60 }, (_, i) => `Rule ${i}: answer politely and cite the policy section.`).join(
  ' ',
);
const PROMPT = `system:\n${SYSTEM}\nuser:\nWhere is my parcel?\n`;

type Metric = 'ttftMs' | 'tpotMs' | 'e2eMs';
/** Loose enough that the share meeting it does not depend on the load of the machine running the tests. */
const LOOSE_SLO = ['--slo', 'ttft=600000,tpot=600000'];

/**
 * Runs `bench` and the exported scenario against the same server (each through a recording proxy),
 * imports the Artillery report, and checks bodies, counts and the medians of `metrics` per level.
 */
async function replayAndCompare(
  baseUrl: string,
  runOptions: string[],
  metrics: (cache: string) => Metric[],
  { perEngineSpeed = false, floorMs = 0 } = {},
): Promise<BenchResult> {
  const options = [...runOptions, ...LOOSE_SLO];
  const dir = await mkdtemp(join(tmpdir(), 'prompt-lens-artillery-'));
  try {
    await writeFile(join(dir, 'support.prompt'), PROMPT);
    const url = new URL(baseUrl);
    const path = url.pathname.replace(/\/+$/, '');
    const builtInProxy = await recordingProxy(url.origin);
    const builtIn = await cli(
      ['bench', 'support.prompt', '--base-url', `${builtInProxy.url}${path}`, ...options, '--json'],
      dir,
    );
    await builtInProxy.close();
    assert.equal(builtIn.code, 0, builtIn.stderr);
    const reference = JSON.parse(builtIn.stdout) as BenchResult;

    const artilleryProxy = await recordingProxy(url.origin);
    const exported = await cli(
      [
        'bench',
        'support.prompt',
        '--base-url',
        `${artilleryProxy.url}${path}`,
        ...options,
        '--export',
        'artillery',
        'out',
      ],
      dir,
    );
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /npx artillery run scenario\.yml --output report\.json/);
    const ran = await artillery(['run', 'scenario.yml', '--output', 'report.json'], join(dir, 'out'));
    await artilleryProxy.close();
    assert.equal(ran.code, 0, ran.stderr.slice(-2000));

    // Same requests: the warm-ups, the priming and every measured request, body for body.
    const sent = (bodies: string[]) => bodies.map(withoutNonce).sort();
    assert.equal(artilleryProxy.bodies.length, builtInProxy.bodies.length);
    assert.deepEqual(sent(artilleryProxy.bodies), sent(builtInProxy.bodies));
    const cold = builtInProxy.bodies.filter((b) => withoutNonce(b) !== b).length;
    assert.ok(cold > 0 && cold < builtInProxy.bodies.length, 'both cold (nonce) and warm (identical) bodies were sent');
    assert.equal(new Set(artilleryProxy.bodies).size, cold + 1, 'every cold body unique, every warm body the same');

    const imported = await cli(['import', 'artillery', 'out/report.json', '--json'], dir);
    assert.equal(imported.code, 0, imported.stderr);
    const result = JSON.parse(imported.stdout) as BenchResult;
    assert.equal(result.source?.tool, 'artillery');
    assert.ok(levels(result).every((l) => l.summaryFrom === 'aggregate'));
    // The report file itself is Artillery's: its own metrics beside ours.
    const report = JSON.parse(await readFile(join(dir, 'out/report.json'), 'utf8')) as {
      aggregate: { counters: Record<string, number> };
    };
    assert.equal(report.aggregate.counters['vusers.completed'], 1);

    const rows: string[] = [];
    const outside: string[] = [];
    for (const mode of reference.modes) {
      for (const level of mode.levels) {
        const other = result.modes.find((m) => m.cache === mode.cache)?.levels.find((l) => l.label === level.label);
        assert.ok(other, `${mode.cache} ${level.label} imported`);
        assert.equal(other.summary.requests, level.summary.requests);
        assert.equal(other.summary.succeeded, level.summary.succeeded);
        // Under the tests' loose SLO every successful request meets it on both sides: this checks the
        // processor's slo_met counter against the built-in count, not the machine's timing.
        assert.equal(other.summary.sloShare, level.summary.sloShare);
        for (const metric of metrics(mode.cache)) {
          const a = level.summary[metric]!.p50;
          const b = other.summary[metric]!.p50;
          // The engine's own difference between the two runs, timed at the proxy, taken out: what is left
          // is the difference between the two clients' measurements.
          const engineShift = perEngineSpeed
            ? engineSide(artilleryProxy, mode.cache, metric, level.summary.requests, true) -
              engineSide(builtInProxy, mode.cache, metric, level.summary.requests, false)
            : 0;
          const expected = a + engineShift;
          rows.push(
            `${mode.cache} ${level.label} ${metric} p50: built-in ${a.toFixed(1)}, Artillery ${b.toFixed(1)} (${pct(b, a)})` +
              (perEngineSpeed
                ? `; engine ${engineShift >= 0 ? '+' : ''}${engineShift.toFixed(1)} ms in the Artillery run → ${pct(b, expected)}`
                : ''),
          );
          if (Math.abs(b - expected) > Math.max(0.1 * expected, floorMs))
            outside.push(`${mode.cache} ${level.label} ${metric} median: ${b} vs ${a} (engine ${engineShift} ms)`);
        }
      }
    }
    process.stderr.write(`      ${rows.join('\n      ')}\n      artillery run took ${(ran.ms / 1000).toFixed(1)} s\n`);
    assert.deepEqual(outside, [], 'medians within 10 %');
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('Artillery export', () => {
  describe('against the simulator', () => {
    let sim: RunningSimulator;
    before(async () => {
      sim = await startSimulator({
        port: 0,
        model: 'sim',
        latency: linearLatencyModel({
          prefillBaseMs: 150,
          prefillTokensPerSecond: 1000,
          tpotBaseMs: 15,
          tpotMsPer1kContext: 0.5,
          tpotMsPerExtraSequence: 0.2,
        }),
        log: () => undefined,
      });
    });
    after(() => sim?.close());

    it('sends what the built-in client sends and imports back within 10 % of its medians', async () => {
      const options = [
        '--model',
        'sim',
        '--concurrency',
        '1,4',
        '--requests',
        '8',
        '--cache',
        'both',
        '--max-tokens',
        '24',
      ];
      await replayAndCompare(sim.url, options, () => ['ttftMs', 'tpotMs', 'e2eMs']);
    });
  });

  describe('against the real engine (llama.cpp)', () => {
    it('sends what the built-in client sends, imports back with the same counts and SLO share, and is really warm', async () => {
      const engine = await sharedEngine();
      const options = [
        '--model',
        engine.model,
        '--concurrency',
        '1',
        '--requests',
        '8',
        '--cache',
        'both',
        '--max-tokens',
        '32',
      ];
      // Medians within 10 % once the engine's own difference between the two runs is taken out: the
      // one-thread engine shares 2 cores with whichever client runs, so its speed moves between the two
      // runs (at load ~12: cold TTFT medians 1,763 ms built-in, 2,322 ms through Artillery, the engine itself
      // 746 ms slower in the Artillery run as the proxy saw it: −7.4 % once that is taken out);
      // the proxy times every request from the engine's side and the check holds what remains, the two
      // clients' measurements. The floor: a warm TTFT median is 8–13 ms here, and differs by up to 1.9 ms.
      const result = await replayAndCompare(engine.baseUrl, options, () => ['ttftMs', 'tpotMs', 'e2eMs'], {
        perEngineSpeed: true,
        floorMs: 3,
      });
      const speedups = result.cacheSpeedup ?? [];
      assert.equal(speedups.length, 1);
      for (const s of speedups)
        assert.ok(s.speedup > 3, `Artillery ${s.label}: cold ${s.coldTtftP50Ms} ms, warm ${s.warmTtftP50Ms} ms`);
    });
  });
});

/**
 * The engine side of a metric, from the proxy's own clock: over the run's last `count` POSTs of one cache
 * mode (cold = nonce-busted bodies; the measured requests come after the warm-ups and the priming), the
 * median of TTFT, E2E or TPOT as the client defines them. `lower`: the median as Artillery's histograms
 * report it for an even count (the lower middle value); otherwise interpolated, as the built-in client's.
 */
function engineSide(
  proxy: { seen: Seen[]; bodies: string[] },
  cache: string,
  metric: Metric,
  count: number,
  lower: boolean,
): number {
  const values = proxy.seen
    .filter((_, i) => (withoutNonce(proxy.bodies[i]!) !== proxy.bodies[i]) === (cache === 'cold'))
    .slice(-count)
    .map((s) =>
      metric === 'ttftMs'
        ? s.ttftMs
        : metric === 'e2eMs'
          ? s.e2eMs
          : s.contentFrames! > 1
            ? (s.e2eMs! - s.ttftMs!) / (s.contentFrames! - 1)
            : undefined,
    )
    .filter((v): v is number => v !== undefined && Number.isFinite(v))
    .sort((x, y) => x - y);
  assert.equal(values.length, count, `the proxy saw ${count} ${cache} requests complete`);
  return lower ? values[Math.floor((values.length - 1) / 2)]! : percentile(values, 50);
}

function levels(result: BenchResult): LevelResult[] {
  return result.modes.flatMap((m) => m.levels);
}

function pct(value: number, reference: number): string {
  const d = ((value - reference) / reference) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)}%`;
}
