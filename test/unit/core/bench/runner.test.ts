import assert from 'node:assert/strict';
import type { BenchResult } from '../../../../src/core/bench/result';
import { runBenchmark, type BenchOptions } from '../../../../src/core/bench/runner';
import { chatChunk, scriptedServer, sse, writeSlowly, type ScriptedServer } from '../../helpers/scriptedServer';

const firstMessage = (body: string) =>
  (JSON.parse(body) as { messages: Array<{ content: string }> }).messages[0]!.content;

describe('benchmark runner', () => {
  let server: ScriptedServer;
  let delayMs = 5;
  beforeEach(async () => {
    delayMs = 5;
    server = await scriptedServer((_req, res) =>
      writeSlowly(res, [
        [delayMs, sse(chatChunk('a'))],
        [delayMs, sse(chatChunk(' b'), { choices: [], usage: { completion_tokens: 2 } }, '[DONE]')],
      ]),
    );
  });
  afterEach(() => server.close());

  const base = (extra: Partial<BenchOptions> = {}): BenchOptions => ({
    endpoint: { name: 'local', kind: 'openai-chat', baseUrl: `${server.url}/v1`, model: 'm' },
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello?' },
    ],
    maxTokens: 8,
    requests: 6,
    concurrency: [1, 3],
    cache: 'cold',
    timeoutMs: 2000,
    countTokens: () => 1,
    ...extra,
  });

  it('runs warm-up rounds as wide as the level, then N requests per level, never above the level, with progress', async () => {
    const progress: string[] = [];
    const result = await runBenchmark(
      base({ warmup: 2, onProgress: (p) => progress.push(`${p.level} ${p.done}/${p.total}`) }),
    );
    assert.equal(server.seen.length, 2 * 1 + 6 + (2 * 3 + 6));
    assert.deepEqual(
      result.modes[0]!.levels.map((l) => [l.label, l.requests.length, l.summary.succeeded]),
      [
        ['c=1', 6, 6],
        ['c=3', 6, 6],
      ],
    );
    assert.equal(server.maxOpen, 3);
    assert.equal(progress.length, 12);
    assert.equal(progress[11], 'c=3 6/6');
    assert.equal(result.partial, false);
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result, 'the result is plain JSON (survives a round trip)');
  });

  it('reports the result so far after each level (for live views), without sharing later mutations', async () => {
    const snapshots: BenchResult[] = [];
    const result = await runBenchmark(base({ onLevel: (soFar) => snapshots.push(soFar) }));
    assert.deepEqual(
      snapshots.map((r) => r.modes[0]!.levels.map((l) => l.label)),
      [['c=1'], ['c=1', 'c=3']],
    );
    assert.deepEqual(snapshots[1]!.modes, result.modes);
  });

  it('cold: a fresh nonce starts every request, so no two share even their first characters', async () => {
    await runBenchmark(base({ concurrency: [2], requests: 8 }));
    const starts = server.seen.map((s) => firstMessage(s.body));
    assert.ok(
      starts.every((c) => /^\[[0-9a-z]+\] Be brief\.$/.test(c)),
      starts[0],
    );
    const prefixes = starts.map((c) => c.slice(0, c.indexOf(']')));
    assert.equal(new Set(prefixes).size, prefixes.length);
    // No nonce is a prefix of another (e.g. "[abc1" vs "[abc10"): the closing bracket is part of it.
    assert.ok(starts.every((a, i) => starts.every((b, j) => i === j || !b.startsWith(a.slice(0, a.indexOf(']') + 1)))));
  });

  it('warm: a priming request, then the identical prompt; both: reports the measured speedup', async () => {
    await runBenchmark(base({ cache: 'warm', warmup: 0, concurrency: [1], requests: 3 }));
    assert.equal(server.seen.length, 4); // warm-up forced to at least one: it primes the cache
    assert.equal(new Set(server.seen.map((s) => s.body)).size, 1);
    assert.equal(firstMessage(server.seen[0]!.body), 'Be brief.');

    const both = await runBenchmark(base({ cache: 'both', concurrency: [1], requests: 2 }));
    assert.deepEqual(
      both.modes.map((m) => m.cache),
      ['cold', 'warm'],
    );
    const s = both.cacheSpeedup![0]!;
    assert.equal(s.speedup, s.coldTtftP50Ms / s.warmTtftP50Ms);
  });

  it('cancellation stops everything in flight at once and returns a partial result', async () => {
    // The server answers nothing and cancels the run once the first level's 4 requests reached it: every
    // request ending 'cancelled' (none ok) shows the abort cut them short.
    const stop = new AbortController();
    await server.close();
    server = await scriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      if (server.seen.length === 4) stop.abort();
    });
    const result = await runBenchmark(base({ warmup: 0, concurrency: [4, 8], requests: 8, signal: stop.signal }));
    assert.deepEqual([result.partial, result.partialReason], [true, 'cancelled']);
    const level = result.modes[0]!.levels;
    assert.equal(level.length, 1);
    assert.ok(level[0]!.requests.every((r) => r.error?.class === 'cancelled'));
    assert.equal(level[0]!.summary.requests, 0);
  });

  it('the whole-run time limit marks the result partial', async () => {
    delayMs = 60;
    const result = await runBenchmark(base({ warmup: 0, concurrency: [1], requests: 50, maxDurationMs: 200 }));
    assert.deepEqual([result.partial, result.partialReason], [true, 'time-limit']);
    assert.ok(result.modes[0]!.levels[0]!.summary.succeeded < 50);
  });

  it('a Poisson rate sends N requests with exponential gaps from the injected random source', async () => {
    let n = 0;
    const random = () => [0.5, 0.1, 0.9][n++ % 3]!;
    const result = await runBenchmark(base({ warmup: 0, ratePerSecond: 50, requests: 4, random }));
    const level = result.modes[0]!.levels[0]!;
    assert.deepEqual([level.label, level.ratePerSecond, level.requests.length], ['rate=50/s', 50, 4]);
    // The first draw (0.5) seeds the nonces; the gaps use 0.1 then 0.9: -ln(1 − U) / 50 s each.
    const expected = (-Math.log(1 - 0.1) - Math.log(1 - 0.9)) * 20;
    assert.ok(level.requests[2]!.startMs >= expected - 2, `${level.requests[2]!.startMs} vs ${expected}`);
  });

  it('predictions appear beside the measurement with their percent error', async () => {
    const result = await runBenchmark(base({ concurrency: [1], requests: 2, predicted: { ttftMs: 1000 } }));
    const level = result.modes[0]!.levels[0]!;
    assert.equal(
      level.predictionErrorPct!.ttft,
      ((1000 - level.summary.ttftMs!.p50) / level.summary.ttftMs!.p50) * 100,
    );
  });
});
