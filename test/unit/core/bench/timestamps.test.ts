// Where the streaming client reads its clock (issue #19 goal 2): the send at the request's write on an
// open connection, each body read when its socket read begins. Orderings only, no timing thresholds:
// the loop is held busy for a stretch and the test checks on which side of it a reading fell.
import assert from 'node:assert/strict';
import { measureRequest, type MeasureOptions } from '../../../../src/core/bench/client';
import { buildStreamRequest } from '../../../../src/core/bench/runner';
import { socketTransport } from '../../../../src/core/bench/socketTransport';
import type { Arrival } from '../../../../src/core/bench/transport';
import { chatChunk, scriptedServer, sse, type ScriptedServer } from '../../helpers/scriptedServer';

const request = (url: string) =>
  buildStreamRequest(
    { name: 't', kind: 'openai-chat', baseUrl: url, model: 'm' },
    'sk-t',
    [{ role: 'user', content: 'Hi?' }],
    16,
  );
const options: MeasureOptions = { timeoutMs: 10_000, countTokens: () => 1 };

/** Holds this thread's loop for `ms` and returns the clock reading at the end of it. */
function holdLoop(ms: number): number {
  const until = performance.now() + ms;
  while (performance.now() < until);
  return performance.now();
}

describe('streaming client: where its clock is read', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('on an open connection the wait starts at the write, not at the call; a new connection is part of the wait', async () => {
    server = await scriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse(chatChunk('hi'), '[DONE]'));
    });
    // The first request opens the connection: its clock starts at the call, before the loop is held.
    const first = measureRequest(request(server.url), options);
    const held = performance.now();
    holdLoop(20);
    const opened = await first;
    assert.equal(opened.ok, true, opened.error?.message);
    assert.ok(opened.startMs <= held, `${opened.startMs} ≤ ${held}`);
    // The second reuses it: the transport reads the clock and writes the request within the call
    // (node:http wrote it a tick later, so a loop held meanwhile was charged to the endpoint: up to
    // 0.45 ms per request), so a loop held after the call is not in the wait.
    const init = {
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: new AbortController().signal,
      now: () => performance.now(),
    };
    const before = performance.now();
    const second = socketTransport(`${server.url}/v1/chat/completions`, init);
    const after = performance.now();
    holdLoop(20);
    const reused = await second;
    assert.ok(
      reused.sentAt !== undefined && before <= reused.sentAt && reused.sentAt <= after,
      `${before} ≤ ${reused.sentAt} ≤ ${after}`,
    );
    assert.equal((await reused.body.read(init.now, () => false)) !== undefined, true);
    // measureRequest starts a reused request's clock at that reading: its second (the first is the call's).
    let readings = 0;
    const third = await measureRequest(request(server.url), { ...options, now: () => ++readings });
    assert.equal(third.ok, true, third.error?.message);
    assert.equal(third.startMs, 2);
    assert.equal(server.connections, 1);
  });

  it('the bytes of one socket read share one reading, taken before node parses them', async () => {
    let go!: () => void;
    const reading = new Promise<void>((resolve) => (go = resolve));
    server = await scriptedServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      await reading;
      // Two HTTP chunks in one write: one socket read on loopback, which node parses into two pieces.
      res.socket!.cork();
      res.write(sse(chatChunk('a')));
      res.write(sse(chatChunk('b')));
      res.socket!.uncork();
      res.end();
    });
    const response = await socketTransport(`${server.url}/v1/chat/completions`, {
      headers: { 'content-type': 'application/json' },
      body: '{}',
      signal: new AbortController().signal,
      now: () => performance.now(),
    });
    let readings = 0;
    const arrivals: Arrival[] = [];
    const read = response.body.read(
      () => ++readings,
      (batch) => {
        arrivals.push(...batch);
        return false;
      },
    );
    go();
    await read;
    assert.equal(arrivals.length, 2, 'node hands the body two pieces');
    // Stamped per piece (in the body's callbacks, after node's parser) they were readings 1 and 2.
    assert.deepEqual(
      arrivals.map((a) => a.at),
      [1, 1],
    );
  });

  it("a level's connections are kept for the next round, above node's default of 256 idle sockets", async () => {
    const streams = 300;
    let open = 0;
    let allOpen!: () => void;
    let round = new Promise<void>((resolve) => (allOpen = resolve));
    server = await scriptedServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (++open === streams) allOpen();
      await round; // every stream of the round is open at once
      res.end(sse(chatChunk('hi'), '[DONE]'));
    });
    for (let i = 0; i < 2; i++) {
      const records = await Promise.all(
        Array.from({ length: streams }, () => measureRequest(request(server!.url), options)),
      );
      assert.deepEqual(
        records.filter((r) => !r.ok).map((r) => r.error),
        [],
      );
      open = 0;
      round = new Promise<void>((resolve) => (allOpen = resolve));
    }
    // With node's default the second round opened 44 new connections (and timed their set-up).
    assert.equal(server.connections, streams);
  });
});
