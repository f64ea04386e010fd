import assert from 'node:assert/strict';
import { join } from 'node:path';
import { buildStreamRequest } from '../../../../src/core/bench/runner';
import { serveStreams, StreamPool, type PoolReply } from '../../../../src/core/bench/streamPool';
import { chatChunk, scriptedServer, sse, writeSlowly, type ScriptedServer } from '../../helpers/scriptedServer';
import { tsWorker } from '../../helpers/tsWorker';

/** A promise and its resolver (Node 20 has no Promise.withResolvers). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const WORKER = join(__dirname, '../../../../src/core/bench/stream.worker.ts');
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;
const request = (url: string, content: string) =>
  buildStreamRequest(
    { name: 't', kind: 'openai-chat', baseUrl: url, model: 'm' },
    'sk-pool',
    [{ role: 'user', content }],
    16,
  );

describe('stream pool: requests measured in worker threads', function () {
  // Starting workers that load TypeScript through tsx takes seconds on a loaded machine.
  this.timeout(120_000);
  let pool: StreamPool;
  let server: ScriptedServer | undefined;
  before(() => (pool = new StreamPool(() => tsWorker(WORKER), 2)));
  after(() => pool.close());
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('measures concurrent streams in its workers and gives each caller its own record', async () => {
    // Request n answers with n + 2 usage tokens, so a mixed-up reply shows.
    let open = 0;
    const allOpen = signal();
    server = await scriptedServer(async (req, res) => {
      const n = Number((JSON.parse(req.body) as { messages: Array<{ content: string }> }).messages[0]!.content);
      if (++open === 6) allOpen.resolve();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chatChunk('a')));
      await allOpen.promise; // every stream is open at once before any finishes
      res.end(sse(chatChunk(' b'), { choices: [], usage: { completion_tokens: n + 2 } }, '[DONE]'));
    });
    const before = performance.now();
    const records = await Promise.all(
      Array.from({ length: 6 }, (_, n) =>
        pool.measure(request(server!.url, String(n)), { timeoutMs: 60_000, countTokens: countWords }),
      ),
    );
    const after = performance.now();
    assert.equal(server.maxOpen, 6);
    assert.deepEqual(
      records.map((r) => [r.ok, r.outputTokens, r.outputTokensSource, r.itlMs.length]),
      Array.from({ length: 6 }, (_, n) => [true, n + 2, 'usage', 1]),
    );
    for (const r of records) {
      // Rebased onto this thread's clock: sent between the two readings around the calls.
      assert.ok(r.startMs >= before && r.startMs <= after, `${before} ≤ ${r.startMs} ≤ ${after}`);
      assert.equal(r.tpotMs, (r.e2eMs! - r.ttftMs!) / (r.outputTokens! - 1));
      assert.equal(r.e2eMs! - r.ttftMs!, r.itlMs[0]);
    }
  });

  it('without usage, the caller counts the streamed text with its own tokenizer', async () => {
    server = await scriptedServer((_req, res) =>
      writeSlowly(res, [[0, sse(chatChunk('one two'), chatChunk(' three'), chatChunk(' four five'), '[DONE]')]]),
    );
    const r = await pool.measure(request(server.url, 'x'), { timeoutMs: 60_000, countTokens: countWords });
    assert.deepEqual([r.ok, r.outputTokens, r.outputTokensSource], [true, 5, 'counted']);
    assert.equal(r.tpotMs, (r.e2eMs! - r.ttftMs!) / 4);
  });

  it('cancelling aborts the stream in its worker; a request cancelled before sending is never sent', async () => {
    const wrote = signal();
    server = await scriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chatChunk('first')), () => wrote.resolve());
      // …and nothing more: only the cancellation can end it before the timeout far beyond the test's.
    });
    const cancel = new AbortController();
    void wrote.promise.then(() => cancel.abort());
    const r = await pool.measure(request(server.url, 'x'), {
      timeoutMs: 600_000,
      countTokens: countWords,
      signal: cancel.signal,
    });
    assert.deepEqual([r.ok, r.error?.class], [false, 'cancelled']);
    const early = await pool.measure(request(server.url, 'y'), {
      timeoutMs: 600_000,
      countTokens: countWords,
      signal: cancel.signal,
    });
    assert.deepEqual([early.error?.class, server.seen.length], ['cancelled', 1]);
  });

  it("cancelling one caller's signal stops only its streams: another signal's stream in the same worker ends", async () => {
    const single = new StreamPool(() => tsWorker(WORKER), 1);
    try {
      const bothOpen = signal();
      const finish = signal();
      let open = 0;
      server = await scriptedServer(async (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(sse(chatChunk('a')));
        if (++open === 2) bothOpen.resolve();
        await finish.promise;
        res.end(sse(chatChunk(' b'), '[DONE]'));
      });
      const [a, b] = [new AbortController(), new AbortController()];
      const options = (cancel: AbortController) => ({
        timeoutMs: 600_000,
        countTokens: countWords,
        signal: cancel.signal,
      });
      const first = single.measure(request(server.url, 'a'), options(a));
      const second = single.measure(request(server.url, 'b'), options(b));
      await bothOpen.promise;
      a.abort();
      const cancelled = await first;
      finish.resolve();
      const ended = await second;
      assert.deepEqual(
        [cancelled.error?.class, ended.ok, ended.outputTokens, ended.error],
        ['cancelled', true, 2, undefined],
      );
    } finally {
      await single.close();
    }
  });

  it("a worker's streams of one signal share its cancellation: one cancel stops them all, without a listener-leak warning", async () => {
    const streams = 24;
    const opened = signal();
    server = await scriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chatChunk('a')));
      if (server!.seen.length === streams) opened.resolve();
    });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const replies: PoolReply[] = [];
      const all = signal();
      // The worker's side, on this thread: what stream.worker.ts runs.
      const serve = serveStreams((reply) => {
        if (replies.push(reply) === streams) all.resolve();
      });
      const { url, headers, body } = request(server.url, 'x');
      for (let id = 1; id <= streams; id++)
        serve({
          measure: { id, url, headers, body, kind: 'openai-chat', timeoutMs: 600_000, secrets: [], cancelGroup: 7 },
        });
      await opened.promise;
      serve({ cancel: 7 });
      await all.promise;
      // A warning is emitted on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual([...new Set(replies.map((r) => r.record.error?.class))], ['cancelled']);
      assert.deepEqual(warnings, []);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a key in an endpoint error is redacted in the worker, as measureRequest does', async () => {
    server = await scriptedServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'bad key sk-pool' } }));
    });
    const r = await pool.measure(request(server.url, 'x'), {
      timeoutMs: 60_000,
      countTokens: countWords,
      secrets: ['sk-pool'],
    });
    assert.equal(r.error?.class, 'http');
    assert.doesNotMatch(r.error!.message, /sk-pool/);
  });
});
