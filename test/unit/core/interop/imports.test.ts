import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchResult, LevelResult } from '../../../../src/core/bench/result';
import { detectTool, importReport } from '../../../../src/core/interop/importReport';
import { parseRunFile } from '../../../../src/core/interop/run';

const FIXTURES = join(__dirname, '../../../fixtures/interop');
const read = (name: string) => ({ file: name, text: readFileSync(join(FIXTURES, name), 'utf8') });
const run = () => {
  const parsed = parseRunFile(read('artillery-run.json').text, 'artillery-run.json');
  assert.ok(parsed.ok);
  return parsed.value;
};
const ok = (r: ReturnType<typeof importReport>): BenchResult => {
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
};
const level = (result: BenchResult, cache: string, label: string): LevelResult => {
  const found = result.modes.find((m) => m.cache === cache)?.levels.find((l) => l.label === label);
  assert.ok(found, `${cache} ${label}`);
  return found;
};

describe('imports of other tools’ results', () => {
  describe('vLLM --save-result', () => {
    it('recomputes each level from the per-request lists (--save-detailed, --append-result)', () => {
      const result = ok(importReport('vllm', [read('vllm-results.json')], { slo: { ttftMs: 250, tpotMs: 120 } }));
      assert.equal(result.source?.tool, 'vllm');
      const c1 = level(result, 'cold', 'c=1');
      assert.equal(c1.summaryFrom, 'requests');
      assert.equal(c1.summary.requests, 4);
      assert.equal(c1.summary.failed, 1);
      assert.deepEqual(c1.summary.errorsByClass, { connection: 1 });
      assert.match(c1.summary.errorExamples.connection ?? '', /Server disconnected/);
      assert.equal(c1.summary.ttftMs?.p50, 200);
      assert.equal(c1.summary.tpotMs?.p50, 100);
      assert.equal(c1.summary.itlMs?.p50, 100);
      assert.equal(c1.summary.e2eMs?.p50, 600);
      // TTFT ≤ 250 and TPOT ≤ 120: two of the four requests (the failed one counts against it).
      assert.equal(c1.summary.sloShare, 0.5);
      const c2 = level(result, 'cold', 'c=2');
      assert.equal(c2.requests[1]?.tpotMs, undefined, 'a one-token answer has no TPOT');
      assert.equal(c2.summary.tpotMs?.count, 1);
    });

    it('keeps vLLM’s own summary without per-request data, and its goodput only against the same SLO', () => {
      const same = level(ok(importReport('vllm', [read('vllm-summary.json')])), 'warm', 'c=4');
      assert.equal(same.summaryFrom, 'aggregate');
      assert.deepEqual(same.summary.ttftMs, { mean: 120, p50: 110, stdev: 20, p90: 150, p95: 160, p99: 170, count: 9 });
      assert.equal(same.summary.sloShare, 0.8); // goodput 2/s × 4 s over 10 requests
      const other = level(
        ok(importReport('vllm', [read('vllm-summary.json')], { slo: { ttftMs: 400, tpotMs: 30 } })),
        'warm',
        'c=4',
      );
      assert.equal(other.summary.sloShare, null);
      assert.equal(other.summary.goodput, null);
    });

    it('names the field when the file is not a vLLM result', () => {
      const bad = importReport('vllm', [{ file: 'x.json', text: '{"duration": 1, "completed": 1}' }]);
      assert.ok(!bad.ok);
      assert.match(bad.error, /^x\.json: not a vLLM --save-result JSON: .*model_id/);
      const broken = importReport('vllm', [{ file: 'x.json', text: '{"model_id": ' }]);
      assert.ok(!broken.ok);
      assert.match(broken.error, /x\.json: line 1 is not valid JSON/);
    });

    it('refuses a result made by another export than the run description given', () => {
      const other = { ...run(), id: '000000000000' };
      const refused = importReport('vllm', [read('vllm-results.json')], { run: other });
      assert.ok(!refused.ok);
      assert.match(refused.error, /made by export 89d266b405f2, not 000000000000/);
    });
  });

  describe('GuideLLM benchmarks report', () => {
    it('recomputes TTFT, TPOT (GuideLLM’s inter_token_latency) and E2E per request; no ITL', () => {
      const result = ok(importReport('guidellm', [read('guidellm-benchmarks.json')]));
      assert.equal(result.source?.version, '0.7.3');
      const c2 = level(result, 'warm', 'c=2');
      assert.equal(c2.summary.requests, 4);
      assert.deepEqual(c2.summary.errorsByClass, { http: 1 });
      assert.equal(Math.round(c2.summary.ttftMs!.p50), 300);
      assert.equal(Math.round(c2.summary.tpotMs!.p50), 100);
      assert.equal(Math.round(c2.summary.e2eMs!.p50), 700);
      assert.equal(c2.summary.itlMs, null);
      assert.equal(c2.durationMs, 2000);
      assert.equal(c2.summary.requestsPerSecond, 1.5);
      assert.equal(result.endpoint.model, 'Qwen/Qwen2.5-7B-Instruct');
    });

    it('refuses a report schema it does not know', () => {
      const text = read('guidellm-benchmarks.json').text.replace('"version": 2', '"version": 3');
      const refused = importReport('guidellm', [{ file: 'b.json', text }]);
      assert.ok(!refused.ok);
      assert.match(refused.error, /b\.json: not a GuideLLM benchmarks report .*metadata\.version/);
    });
  });

  describe('AIPerf profile export', () => {
    const dir = 'aiperf-cold-c2.artifacts';
    it('reads the per-request records with the summary beside them (load setting, cache state)', () => {
      const records = read(`${dir}/profile_export.jsonl`);
      const summary = read(`${dir}/profile_export_aiperf.json`).text;
      const result = ok(importReport('aiperf', [{ ...records, summary }]));
      const c2 = level(result, 'cold', 'c=2');
      assert.equal(c2.summaryFrom, 'requests');
      assert.equal(c2.summary.requests, 3, 'the warm-up record is left out');
      assert.deepEqual(c2.summary.errorsByClass, { http: 1 });
      assert.equal(c2.summary.ttftMs?.p50, 125);
      assert.equal(c2.summary.tpotMs?.p50, 100);
      assert.equal(c2.summary.itlMs?.p50, 100);
      assert.equal(c2.durationMs, 500);
      assert.equal(result.source?.version, '0.8.0');
    });

    it('falls back to AIPerf’s summary, with the SLO share unknown', () => {
      const c2 = level(ok(importReport('aiperf', [read(`${dir}/profile_export_aiperf.json`)])), 'cold', 'c=2');
      assert.equal(c2.summaryFrom, 'aggregate');
      assert.equal(c2.summary.ttftMs?.p99, 149.5);
      assert.equal(c2.summary.sloShare, null);
    });

    it('names the line of a broken record', () => {
      const refused = importReport('aiperf', [{ file: 'p.jsonl', text: '{"metadata": {}}\n' }]);
      assert.ok(!refused.ok);
      assert.match(refused.error, /p\.jsonl line 1: not an AIPerf per-request record: metadata\.request_start_ns/);
    });
  });

  describe('Artillery report of an export', () => {
    it('reads the processor’s metrics level by level with exact counts', () => {
      const result = ok(importReport('artillery', [read('artillery-report.json')], { run: run() }));
      assert.equal(result.modes.length, 2);
      for (const l of result.modes.flatMap((m) => m.levels)) {
        assert.equal(l.summary.requests, 4);
        assert.equal(l.summary.succeeded, 4);
        assert.equal(l.summary.sloShare, 1);
        assert.ok(l.summary.ttftMs && l.summary.ttftMs.count === 4);
        assert.ok(l.durationMs > 0);
      }
      assert.ok(result.cacheSpeedup?.length);
      assert.ok(result.source?.notes.some((n) => n.startsWith('1 Artillery worker ')));
    });

    it('needs the run description of the same export', () => {
      const missing = importReport('artillery', [read('artillery-report.json')]);
      assert.ok(!missing.ok);
      assert.match(missing.error, /needs the prompt-lens-run\.json/);
      const other = importReport('artillery', [read('artillery-report.json')], {
        run: { ...run(), id: 'aaaaaaaaaaaa' },
      });
      assert.ok(!other.ok);
      assert.match(other.error, /from export 89d266b405f2, but prompt-lens-run\.json describes export aaaaaaaaaaaa/);
    });
  });

  it('tells the tools’ files apart', () => {
    assert.equal(detectTool(read('artillery-report.json').text), 'artillery');
    assert.equal(detectTool(read('vllm-summary.json').text), 'vllm');
    assert.equal(detectTool(read('guidellm-benchmarks.json').text), 'guidellm');
    assert.equal(detectTool(read('aiperf-cold-c2.artifacts/profile_export.jsonl').text), 'aiperf');
    assert.equal(detectTool('{"schemaVersion": 1, "modes": []}'), undefined);
  });
});
