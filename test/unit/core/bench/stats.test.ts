import assert from 'node:assert/strict';
import type { BenchResult, LevelSummary, RequestRecord } from '../../../../src/core/bench/result';
import {
  distribution,
  levelPasses,
  levelPredictionError,
  meetsSlo,
  percentError,
  percentile,
  shareText,
  sloVerdict,
  summarizeLevel,
} from '../../../../src/core/bench/stats';

const oneToHundred = Array.from({ length: 100 }, (_, i) => i + 1);

/** A successful request; `over` overrides fields. */
const request = (over: Partial<RequestRecord> = {}): RequestRecord => ({ startMs: 0, ok: true, itlMs: [], ...over });

/** #23 item 1: the statistics every benchmark table prints, held to the values they are defined to be. */
describe('benchmark statistics', () => {
  it('percentiles interpolate linearly between closest ranks (numpy "linear"): p99 of 1..100 is 99.01', () => {
    // Rank h = 99 × 0.99 = 98.01 → x[98] + 0.01 × (x[99] − x[98]) = 99 + 0.01 = 99.01; the floor rank would say 99.
    assert.ok(Math.abs(percentile(oneToHundred, 99) - 99.01) < 1e-9, String(percentile(oneToHundred, 99)));
    assert.ok(Math.abs(percentile(oneToHundred, 95) - 95.05) < 1e-9);
    assert.ok(Math.abs(percentile(oneToHundred, 90) - 90.1) < 1e-9);
    assert.equal(percentile(oneToHundred, 50), 50.5);
    assert.equal(percentile(oneToHundred, 0), 1);
    assert.equal(percentile(oneToHundred, 100), 100);
    assert.equal(percentile([7], 99), 7);
    assert.ok(Number.isNaN(percentile([], 50)));
  });

  it('a distribution sorts its values and reports count, mean, population stdev, extremes and p50–p99', () => {
    const d = distribution([...oneToHundred].reverse())!;
    assert.equal(d.count, 100);
    assert.equal(d.mean, 50.5);
    // Population standard deviation of 1..n is √((n² − 1)/12).
    assert.ok(Math.abs(d.stdev - Math.sqrt((100 * 100 - 1) / 12)) < 1e-9, String(d.stdev));
    assert.equal(d.min, 1);
    assert.equal(d.max, 100);
    assert.equal(d.p50, 50.5);
    assert.ok(Math.abs(d.p90 - 90.1) < 1e-9);
    assert.ok(Math.abs(d.p95 - 95.05) < 1e-9);
    assert.ok(Math.abs(d.p99 - 99.01) < 1e-9);
    assert.equal(distribution([]), null);
    // Numbers sort by value, not as strings (10 < 9 as text).
    assert.deepEqual([distribution([10, 9, 100])!.min, distribution([10, 9, 100])!.p50], [9, 10]);
  });

  it('the SLOs hold at their limits; a request under the TTFT limit but over the TPOT limit does not meet them', () => {
    const slo = { ttftMs: 500, tpotMs: 30 };
    assert.equal(meetsSlo(request({ ttftMs: 500, tpotMs: 30 }), slo), true);
    assert.equal(meetsSlo(request({ ttftMs: 100, tpotMs: 31 }), slo), false);
    assert.equal(meetsSlo(request({ ttftMs: 501, tpotMs: 10 }), slo), false);
    // One output token: no TPOT, judged on TTFT alone.
    assert.equal(meetsSlo(request({ ttftMs: 100 }), slo), true);
    assert.equal(meetsSlo(request({ tpotMs: 10 }), slo), false);
    assert.equal(meetsSlo(request({ ok: false, ttftMs: 100, tpotMs: 10 }), slo), false);
  });

  it('goodput counts only requests that meet both SLOs: fast first token with slow decoding is not goodput', () => {
    const slo = { ttftMs: 500, tpotMs: 30 };
    const records = [
      request({ ttftMs: 200, tpotMs: 20, e2eMs: 400, outputTokens: 11 }),
      request({ ttftMs: 200, tpotMs: 80, e2eMs: 1000, outputTokens: 11 }), // under TTFT, over TPOT
      request({ ttftMs: 900, tpotMs: 20, e2eMs: 1100, outputTokens: 11 }), // over TTFT
      request({ ttftMs: 300, tpotMs: 25, e2eMs: 550, outputTokens: 11 }),
    ];
    const s = summarizeLevel(records, 2000, slo);
    assert.equal(s.goodput, 1, 'two of four requests met both SLOs in 2 s');
    assert.equal(s.sloShare, 0.5);
    assert.equal(s.requestsPerSecond, 2);
    assert.equal(s.aggregateOutputTokensPerSecond, 22);
  });

  it('a level summary counts failures by class, leaves cancelled requests out and takes metrics from successes', () => {
    const slo = { ttftMs: 500, tpotMs: 30 };
    const records = [
      request({ ttfbMs: 50, ttftMs: 100, tpotMs: 10, e2eMs: 1100, itlMs: [5, 15], outputTokens: 101 }),
      request({ ttfbMs: 70, ttftMs: 300, tpotMs: 20, e2eMs: 2300, itlMs: [25], outputTokens: 101 }),
      request({ ok: false, ttftMs: 1, error: { class: 'http', message: 'first 503' } }),
      request({ ok: false, error: { class: 'http', message: 'second 503' } }),
      request({ ok: false, error: { class: 'timeout', message: 'no first byte in 60 s' } }),
      request({ ok: false, error: { class: 'cancelled', message: 'stopped' } }),
    ];
    const s = summarizeLevel(records, 4000, slo);
    assert.equal(s.requests, 5);
    assert.equal(s.succeeded, 2);
    assert.equal(s.failed, 3);
    assert.deepEqual(s.errorsByClass, { http: 2, timeout: 1 });
    assert.deepEqual(s.errorExamples, { http: 'first 503', timeout: 'no first byte in 60 s' });
    assert.deepEqual([s.ttfbMs!.min, s.ttfbMs!.max], [50, 70]);
    assert.deepEqual([s.ttftMs!.count, s.ttftMs!.mean], [2, 200], 'failed requests add no TTFT');
    assert.deepEqual([s.tpotMs!.min, s.tpotMs!.max], [10, 20]);
    assert.deepEqual([s.itlMs!.count, s.itlMs!.mean], [3, 15]);
    assert.deepEqual([s.e2eMs!.min, s.e2eMs!.max], [1100, 2300]);
    // Per-request output speed: 101 tokens in 1.1 s and in 2.3 s.
    assert.ok(Math.abs(s.outputTokensPerSecond!.max! - 101000 / 1100) < 1e-9);
    assert.ok(Math.abs(s.outputTokensPerSecond!.min! - 101000 / 2300) < 1e-9);
    assert.equal(s.aggregateOutputTokensPerSecond, 202 / 4);
    assert.equal(s.requestsPerSecond, 0.5);
    assert.equal(s.goodput, 0.5);
    assert.equal(s.sloShare, 2 / 5);
  });

  it('a level with no duration or no requests has zero rates, not Infinity or NaN', () => {
    const s = summarizeLevel([request({ ttftMs: 1, outputTokens: 5 })], 0, { ttftMs: 500, tpotMs: 30 });
    assert.deepEqual([s.requestsPerSecond, s.goodput, s.aggregateOutputTokensPerSecond], [0, 0, 0]);
    const empty = summarizeLevel([], 1000, { ttftMs: 500, tpotMs: 30 });
    assert.equal(empty.sloShare, 0);
    assert.equal(empty.ttftMs, null);
    // A request without an output count has no output speed (not NaN among the values).
    assert.equal(summarizeLevel([request({ e2eMs: 100 })], 1000, { ttftMs: 1, tpotMs: 1 }).outputTokensPerSecond, null);
    // A request without an e2e time has no output speed (no division by zero).
    assert.equal(
      summarizeLevel([request({ outputTokens: 5 })], 1000, { ttftMs: 1, tpotMs: 1 }).outputTokensPerSecond,
      null,
    );
  });

  it('prediction error is signed: predicted too high is positive, measured against the level medians', () => {
    assert.equal(percentError(120, 100), 20);
    assert.equal(percentError(80, 100), -20);
    const summary = { ttftMs: { mean: 0, p50: 200 }, tpotMs: { mean: 0, p50: 20 } } as Pick<
      LevelSummary,
      'ttftMs' | 'tpotMs'
    >;
    assert.deepEqual(levelPredictionError({ ttftMs: 250, tpotMs: 15 }, summary), { ttft: 25, tpot: -25 });
    assert.deepEqual(levelPredictionError({ ttftMs: 250 }, summary), { ttft: 25 });
    assert.deepEqual(levelPredictionError({ tpotMs: 15 }, { ttftMs: null, tpotMs: summary.tpotMs }), { tpot: -25 });
    assert.equal(levelPredictionError({}, summary), undefined);
    assert.equal(levelPredictionError({ ttftMs: 250 }, { ttftMs: null, tpotMs: null }), undefined);
  });

  it('an --slo verdict: a level passes at the minimum share, fails below it, an unknown share or a partial run fails', () => {
    const level = (label: string, sloShare: number | null, requests = 10) => ({
      label,
      summary: { requests, sloShare } as LevelSummary,
    });
    const result = (levels: ReturnType<typeof level>[], partial?: BenchResult['partialReason']) =>
      ({
        modes: [{ cache: 'cold', levels }],
        ...(partial ? { partial: true, partialReason: partial } : {}),
      }) as unknown as BenchResult;
    assert.equal(levelPasses(level('c=1', 0.9).summary, 0.9), true);
    assert.equal(levelPasses(level('c=1', 0.89).summary, 0.9), false);
    assert.equal(levelPasses(level('c=1', 1, 0).summary, 0.9), false, 'a level without requests does not pass');
    assert.equal(levelPasses(level('c=1', null).summary, 0), false);
    assert.deepEqual(sloVerdict(result([level('c=1', 0.95), level('c=4', 0.9)]), 0.9), { pass: true, failures: [] });
    assert.deepEqual(sloVerdict(result([level('c=1', 0.95), level('c=16', 0.72)]), 0.9), {
      pass: false,
      failures: ['cold c=16: 72% met the SLOs (needs 90%)'],
    });
    assert.deepEqual(sloVerdict(result([level('c=1', null)]), 0.9).failures, [
      'cold c=1: the share that met the SLOs is unknown (the report has no per-request data)',
    ]);
    assert.deepEqual(sloVerdict(result([level('c=1', 1)], 'time-limit'), 0.9), {
      pass: false,
      failures: ['the run is partial (stopped by its time limit): levels or requests that did not run were not judged'],
    });
    assert.deepEqual(sloVerdict(result([level('c=1', 1)], 'cancelled'), 0.9).failures, [
      'the run is partial (cancelled): levels or requests that did not run were not judged',
    ]);
    assert.equal(sloVerdict(result([]), 0.9).pass, false, 'a run that measured nothing does not pass');
    assert.equal(shareText(0.724), '72%');
    assert.equal(shareText(null), 'unknown');
  });
});
