import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import type { RequestRecord } from '../../../../src/core/bench/result';
import {
  bundledStreamWorkers,
  runBenchmark,
  type BenchOptions,
  type StreamWorkers,
} from '../../../../src/core/bench/runner';
import { STREAM_WORKER_OPTIONS } from '../../../../src/core/bench/streamPool';
import { chatChunk, scriptedServer, sse, writeSlowly, type ScriptedServer } from '../../helpers/scriptedServer';
import { tsWorker } from '../../helpers/tsWorker';

// runBenchmark measures levels of high concurrency in a StreamPool of worker threads (#19 goal 2).
// The same run through the pool and on this thread's loop must give the same records (but for the
// timings), in the same order, with the same cancellation and error handling.

const WORKER = join(__dirname, '../../../../src/core/bench/stream.worker.ts');
const contentOf = (body: string) =>
  (JSON.parse(body) as { messages: Array<{ content: string }> }).messages.at(-1)!.content;

/** Workers started for levels of 4 streams and more; `spawned` lists them, to see when the pool is used. */
function workers(): StreamWorkers & { spawned: Worker[] } {
  const spawned: Worker[] = [];
  return {
    spawned,
    size: 2,
    fromConcurrency: 4,
    spawn: () => {
      const w = tsWorker(WORKER);
      spawned.push(w);
      return w;
    },
  };
}

/** A record without its timings (which differ run to run), for comparing two runs. */
function shape(r: RequestRecord): unknown {
  return {
    ok: r.ok,
    outputTokens: r.outputTokens,
    outputTokensSource: r.outputTokensSource,
    itl: r.itlMs.length,
    finishReason: r.finishReason,
    error: r.error && { class: r.error.class, status: r.error.status, message: r.error.message },
    timed: [r.ttftMs, r.e2eMs].map((t) => t === undefined || t >= 0),
  };
}

const exited = (w: Worker) =>
  new Promise<void>((resolve) => (w.threadId === -1 ? resolve() : w.once('exit', () => resolve())));

describe('benchmark runner with stream workers', function () {
  // Workers load TypeScript through tsx: seconds on a loaded machine.
  this.timeout(120_000);
  let server: ScriptedServer;
  afterEach(() => server.close());

  const base = (extra: Partial<BenchOptions> = {}): BenchOptions => ({
    endpoint: { name: 'local', kind: 'openai-chat', baseUrl: `${server.url}/v1`, model: 'm' },
    messages: [{ role: 'user', content: 'Hello?' }],
    maxTokens: 8,
    requests: 12,
    warmup: 0,
    concurrency: [2, 6],
    cache: 'warm',
    timeoutMs: 20_000,
    countTokens: (t) => t.split(/\s+/).filter(Boolean).length,
    ...extra,
  });

  it('measures high-concurrency levels in the workers, with the same records and order as one loop', async () => {
    // Every third request is refused, the others stream three pieces (the second request without usage:
    // the caller counts its text). Answers depend on the order of arrival only, the same in both runs.
    let n = 0;
    server = await scriptedServer((_req, res) => {
      const i = n++;
      if (i % 3 === 2) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `overloaded ${i % 2}` } }));
        return undefined;
      }
      const usage = i % 2 ? [{ choices: [], usage: { completion_tokens: 7 } }] : [];
      return writeSlowly(res, [
        [1, sse(chatChunk('one two'))],
        [1, sse(chatChunk(' three', { finish_reason: 'stop' }), ...usage, '[DONE]')],
      ]);
    });
    const pool = workers();
    const pooled = await runBenchmark(base({ streamWorkers: pool }));
    assert.equal(pool.spawned.length, 2, 'the pool started for the level of 6, not for the level of 2');
    await Promise.all(pool.spawned.map(exited)); // closed with the run
    n = 0;
    const loop = await runBenchmark(base());
    assert.equal(server.maxOpen <= 6, true);
    for (const [i, level] of pooled.modes[0]!.levels.entries()) {
      const other = loop.modes[0]!.levels[i]!;
      assert.equal(level.label, other.label);
      // The multiset of outcomes is the same; which request got which answer depends on arrival order.
      const sorted = (rs: RequestRecord[]) => rs.map((r) => JSON.stringify(shape(r))).sort();
      assert.deepEqual(sorted(level.requests), sorted(other.requests));
      assert.deepEqual(
        [level.summary.requests, level.summary.succeeded],
        [other.summary.requests, other.summary.succeeded],
      );
      // On the level's own time axis, in start order, inside the level.
      const starts = level.requests.map((r) => r.startMs);
      assert.deepEqual(
        starts,
        [...starts].sort((a, b) => a - b),
      );
      assert.ok(
        starts.every((s) => s >= 0 && s <= level.durationMs),
        starts.join(),
      );
    }
    const errors = pooled.modes[0]!.levels[1]!.requests.filter((r) => !r.ok);
    assert.ok(errors.length > 0 && errors.every((r) => r.error?.class === 'http' && r.error.status === 500));
    assert.ok(
      pooled.modes[0]!.levels[1]!.requests.some((r) => r.outputTokensSource === 'counted' && r.outputTokens === 3),
    );
  });

  it('cold requests through the workers each carry their own nonce, kept on the record', async () => {
    server = await scriptedServer((_req, res) => writeSlowly(res, [[1, sse(chatChunk('a b'), '[DONE]')]]));
    const result = await runBenchmark(base({ cache: 'cold', concurrency: [6], streamWorkers: workers() }));
    const records = result.modes[0]!.levels[0]!.requests;
    const sent = server.seen.slice(-12).map((s) => contentOf(s.body));
    assert.equal(new Set(records.map((r) => r.nonce)).size, 12);
    for (const r of records)
      assert.ok(
        sent.some((c) => c.startsWith(`[${r.nonce}]`)),
        r.nonce,
      );
  });

  it('cancelling stops the streams in the workers at once and returns a partial result', async () => {
    const stop = new AbortController();
    server = await scriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders(); // and never a token
      if (server.seen.length === 6) stop.abort();
    });
    const pool = workers();
    const result = await runBenchmark(
      base({ cache: 'cold', concurrency: [6], signal: stop.signal, streamWorkers: pool }),
    );
    assert.deepEqual([result.partial, result.partialReason], [true, 'cancelled']);
    const records = result.modes[0]!.levels[0]!.requests;
    assert.equal(records.length, 6);
    assert.ok(records.every((r) => r.error?.class === 'cancelled'));
    await Promise.all(pool.spawned.map(exited));
  });

  it('a custom fetch or clock keeps every stream on the caller loop (a worker cannot call them)', async () => {
    server = await scriptedServer((_req, res) => writeSlowly(res, [[1, sse(chatChunk('a'), '[DONE]')]]));
    let t = 0;
    const pool = workers();
    const result = await runBenchmark(base({ concurrency: [6], now: () => (t += 1), streamWorkers: pool }));
    assert.equal(pool.spawned.length, 0);
    assert.equal(result.modes[0]!.levels[0]!.summary.succeeded, 12);
  });
});

describe('stream workers from the bundle', () => {
  it('start with the small young generation of STREAM_WORKER_OPTIONS (4 MB)', async () => {
    // A stand-in for dist/stream.worker.js that reports the limits its thread runs under.
    const dir = mkdtempSync(join(tmpdir(), 'stream-worker-'));
    writeFileSync(
      join(dir, 'stream.worker.js'),
      "const { parentPort, resourceLimits } = require('node:worker_threads'); parentPort.postMessage(resourceLimits);",
    );
    const worker = bundledStreamWorkers(dir).spawn();
    try {
      const limits = await new Promise<{ maxYoungGenerationSizeMb?: number }>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      assert.equal(limits.maxYoungGenerationSizeMb, 4);
      assert.equal(STREAM_WORKER_OPTIONS.resourceLimits.maxYoungGenerationSizeMb, 4);
    } finally {
      await worker.terminate();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
