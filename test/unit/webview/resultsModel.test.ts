import assert from 'node:assert/strict';
import type { BenchResult, LevelResult, RequestRecord } from '../../../src/core/bench/result';
import { summarizeLevel } from '../../../src/core/bench/stats';
import {
  alignCdfs,
  compareRuns,
  itlByPosition,
  kneeSeries,
  levelRows,
  ms,
  predictionErrorText,
  runName,
  ttftCdf,
  verdict,
} from '../../../src/webview/results/model';
import { RESULTS_STRINGS } from '../../../src/webview/results/strings';

const slo = { ttftMs: 500, tpotMs: 30 };

function request(ttftMs: number, itlMs: number[], ok = true): RequestRecord {
  const e2eMs = ttftMs + itlMs.reduce((a, b) => a + b, 0);
  return ok
    ? {
        startMs: 0,
        ok,
        ttftMs,
        e2eMs,
        itlMs,
        outputTokens: itlMs.length + 1,
        tpotMs: itlMs.length ? (e2eMs - ttftMs) / itlMs.length : undefined,
      }
    : { startMs: 0, ok, itlMs: [], error: { class: 'http', message: 'HTTP 500' } };
}

function level(concurrency: number, requests: RequestRecord[]): LevelResult {
  return {
    label: `c=${concurrency}`,
    concurrency,
    durationMs: 1000,
    warmupErrors: 0,
    requests,
    summary: summarizeLevel(requests, 1000, slo),
  };
}

function run(levels: LevelResult[]): BenchResult {
  return {
    schemaVersion: 1,
    startedAt: '2026-11-30T00:00:00Z',
    endpoint: { name: 'e', kind: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
    options: { requests: 1, warmup: 0, cache: 'cold', maxTokens: 4, timeoutMs: 1 },
    slo,
    partial: false,
    modes: [{ cache: 'cold', levels }],
  };
}

describe('results view model', () => {
  const fast = level(1, [request(100, [10, 10]), request(200, [10, 20]), request(300, [10, 30])]);
  const slow = level(4, [request(400, [10]), request(900, [40]), request(0, [], false)]);
  const result = run([fast, slow]);

  it('one row per level with its percentiles and the SLO check (≥90% of requests within both limits)', () => {
    const rows = levelRows(result);
    assert.deepEqual(
      rows.map((r) => [r.level, r.requests, r.failed, r.meetsSlo]),
      [
        ['c=1', 3, 0, true],
        ['c=4', 3, 1, false],
      ],
    );
    assert.equal(rows[0]!.ttft!.p50, 200);
    const v = verdict(result);
    assert.equal(v.pass, false);
    assert.deepEqual(v.failures, ['cold c=4: 33% met the SLOs (needs 90%)']);
  });

  it('the TTFT CDF steps through the sorted successful samples', () => {
    assert.deepEqual(ttftCdf(slow), { x: [400, 900], y: [0.5, 1] });
  });

  it('CDF curves are aligned on the union of their x values, each a step function', () => {
    const aligned = alignCdfs([
      { x: [400, 900], y: [0.5, 1] },
      { x: [100, 400, 1000], y: [1 / 3, 2 / 3, 1] },
    ]);
    assert.deepEqual(aligned.xs, [100, 400, 900, 1000]);
    assert.deepEqual(aligned.ys, [
      [0, 0.5, 1, 1],
      [1 / 3, 2 / 3, 2 / 3, 1],
    ]);
  });

  it('the knee series is ordered by concurrency, with p50/p99 TTFT and throughput', () => {
    const knee = kneeSeries(run([slow, fast]).modes[0]!);
    assert.deepEqual(knee.concurrency, [1, 4]);
    assert.deepEqual(knee.ttftP50, [200, 650]);
  });

  it('mean inter-token latency per output position', () => {
    assert.deepEqual(itlByPosition(fast), { position: [1, 2], meanMs: [10, 20] });
  });

  it('formats milliseconds without false precision', () => {
    assert.deepEqual([ms(3.14159), ms(42.4), ms(1234), ms(undefined)], ['3.1 ms', '42 ms', '1.2 s', '–']);
  });

  it('puts two runs side by side: the levels both measured, each percentile with B − A in %', () => {
    const other = run([
      level(1, [request(110, [10, 10]), request(220, [10, 20]), request(330, [10, 30])]),
      level(16, [request(500, [10])]),
    ]);
    other.source = { tool: 'vllm', file: 'vllm-results.json', percentiles: 'recomputed', notes: [] };
    const rows = compareRuns(result, other);
    assert.deepEqual(
      rows.map((r) => `${r.mode} ${r.level}`),
      ['cold c=1'],
      'c=4 and c=16 were measured by one run only',
    );
    const ttft50 = rows[0]!.cells.find((c) => c.name === 'TTFT p50')!;
    assert.deepEqual([ttft50.a, ttft50.b], [200, 220]);
    assert.ok(Math.abs(ttft50.deltaPct! - 10) < 1e-9);
    assert.deepEqual(
      rows[0]!.cells.map((c) => c.name),
      ['TTFT p50', 'TTFT p90', 'TTFT p99', 'TPOT p50', 'TPOT p90', 'TPOT p99', 'E2E p50', 'E2E p90', 'E2E p99'],
    );
    // An imported summary without a percentile leaves that cell without B and without a difference.
    const summaryOnly = run([{ ...other.modes[0]!.levels[0]!, summary: { ...other.modes[0]!.levels[0]!.summary } }]);
    summaryOnly.modes[0]!.levels[0]!.summary.ttftMs = { mean: 220, p50: 220 };
    const p90 = compareRuns(result, summaryOnly)[0]!.cells.find((c) => c.name === 'TTFT p90')!;
    assert.equal(p90.b, undefined);
    assert.equal(p90.deltaPct, undefined);
    assert.deepEqual([runName(result), runName(other)], ['built-in client', 'vllm (vllm-results.json)']);
  });

  it('says which way the prediction missed, in words (error = (predicted − measured) / measured)', () => {
    // predicted 57 ms, measured 100 ms: the request took longer than predicted.
    assert.equal(predictionErrorText(-43, RESULTS_STRINGS), 'measured slower than predicted (prediction 43% low)');
    assert.equal(predictionErrorText(25.4, RESULTS_STRINGS), 'measured faster than predicted (prediction 25% high)');
    assert.equal(predictionErrorText(0.4, RESULTS_STRINGS), 'measured as predicted');
    assert.equal(predictionErrorText(-0.4, RESULTS_STRINGS), 'measured as predicted');
    // the words come from the catalog the host translated
    const translated = { ...RESULTS_STRINGS, predictedSlower: 'langsamer ({0})' };
    assert.equal(predictionErrorText(-10, translated), 'langsamer (10%)');
  });
});
