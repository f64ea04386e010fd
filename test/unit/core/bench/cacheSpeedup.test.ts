import assert from 'node:assert/strict';
import type { LevelResult, ModeResult, RequestRecord } from '../../../../src/core/bench/result';
import { cacheSpeedup } from '../../../../src/core/bench/runner';
import { shiftInterval, speedupText } from '../../../../src/core/bench/stats';

/** A deterministic pseudo-random sequence (mulberry32), so the noise is the same on every run. */
function noise(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sample = (n: number, centre: number, spread: number, seed: number) => {
  const r = noise(seed);
  return Array.from({ length: n }, () => centre + (r() - 0.5) * spread);
};

function level(ttfts: number[]): LevelResult {
  const requests: RequestRecord[] = ttfts.map((ttftMs, i) => ({ startMs: i, ok: true, ttftMs, itlMs: [] }));
  const sorted = [...ttfts].sort((a, b) => a - b);
  const p50 = sorted[Math.floor(sorted.length / 2)]!;
  return {
    label: 'c=1',
    concurrency: 1,
    durationMs: 1000,
    warmupErrors: 0,
    requests,
    summary: { ttftMs: { p50 } } as LevelResult['summary'],
  };
}

const modes = (cold: number[], warm: number[]): ModeResult[] => [
  { cache: 'cold', levels: [level(cold)] },
  { cache: 'warm', levels: [level(warm)] },
];

/** #15 item 4: the prefix-cache card says "no measurable speedup" inside the run's noise, never "0.9× faster". */
describe('prefix-cache speedup against the run’s own noise', () => {
  it('shiftInterval: the Hodges–Lehmann shift and a 95% interval that holds the true shift', () => {
    const shift = shiftInterval(sample(40, 120, 20, 1), sample(40, 40, 20, 2))!;
    assert.ok(Math.abs(shift.estimate - 80) < 5, JSON.stringify(shift));
    assert.ok(shift.low < 80 && shift.high > 80 && shift.low > 60, JSON.stringify(shift));
    // Exactly computable: {3,4,5} − {1,2,3} has 9 differences 0..4; with 3 and 3 values the bound is rank 0.
    assert.deepEqual(shiftInterval([3, 4, 5], [1, 2, 3]), { estimate: 2, low: 0, high: 4, confidence: 0.95 });
    assert.equal(shiftInterval([1, 2], [1, 2, 3]), null);
  });

  it('26.9 vs 26.8 ms of noise is "no measurable speedup", whichever median is lower', () => {
    for (const [coldSeed, warmSeed] of [
      [3, 4],
      [5, 6],
      [7, 8],
    ]) {
      const [s] = cacheSpeedup(modes(sample(30, 26.9, 6, coldSeed!), sample(30, 26.8, 6, warmSeed!)));
      assert.equal(s!.verdict, 'no measurable difference', JSON.stringify(s));
      const text = speedupText(s!);
      assert.equal(text.value, 'no measurable speedup');
      assert.match(text.detail, /95% CI −[\d.]+ ms to [\d.]+ ms: within the run's own noise$/);
    }
  });

  it('a real speedup says "N× faster" with its interval; warm reliably slower never reads as faster', () => {
    const [fast] = cacheSpeedup(modes(sample(30, 200, 20, 9), sample(30, 50, 20, 10)));
    assert.equal(fast!.verdict, 'faster');
    assert.match(speedupText(fast!).value, /^[\d.]+× faster$/);
    const [slow] = cacheSpeedup(modes(sample(30, 50, 10, 11), sample(30, 80, 10, 12)));
    assert.equal(slow!.verdict, 'slower');
    assert.equal(speedupText(slow!).value, 'slower when warm');
    assert.doesNotMatch(speedupText(slow!).value, /faster/);
  });

  it('without per-request data (an imported summary) the medians decide, and a ratio under 1 is not "faster"', () => {
    const text = speedupText({ label: 'c=1', coldTtftP50Ms: 26.8, warmTtftP50Ms: 29.8, speedup: 26.8 / 29.8 });
    assert.equal(text.value, 'slower when warm');
  });
});
