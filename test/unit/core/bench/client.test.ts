import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { gzipSync } from 'node:zlib';
import {
  MAX_OUTPUT_CHARS,
  MAX_USAGE_TOKENS,
  measureRequest,
  withOutputTokens,
  type MeasureOptions,
} from '../../../../src/core/bench/client';
import type { EndpointKind } from '../../../../src/core/bench/endpoints';
import { buildStreamRequest } from '../../../../src/core/bench/runner';
import {
  chatChunk,
  scriptedServer,
  sleep,
  sse,
  steppedClock,
  writeOnReads,
  writeSlowly,
  type ScriptedServer,
} from '../../helpers/scriptedServer';

const KEY = 'sk-test-7f3a9c1e5b2d4a6f';
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length;
const request = (url: string, kind: EndpointKind = 'openai-chat') =>
  buildStreamRequest({ name: 't', kind, baseUrl: url, model: 'm' }, KEY, [{ role: 'user', content: 'Hi?' }], 16);
const options = (extra: Partial<MeasureOptions> = {}): MeasureOptions => ({
  timeoutMs: 2000,
  countTokens: countWords,
  secrets: [KEY],
  ...extra,
});

describe('streaming client against a local scripted server', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('openai-chat: TTFT at the first content token (not the role chunk), ITLs, usage tokens, key sent as bearer', async () => {
    // Each piece is written once the client has read the previous one, and the client's clock returns
    // the scripted time of each read: the timings are exact, whatever the machine's load.
    const pieces = [
      sse({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }),
      sse(chatChunk('Hello')),
      sse(chatChunk(' there')),
      sse(chatChunk(' friend'), { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      sse({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 5 } }, '[DONE]'),
    ];
    // Sent at 1000; role chunk at 1004, then tokens at 1064, 1084, 1104; the usage trailer 150 ms later.
    const times = [1000, 1004, 1064, 1084, 1104, 1254];
    const clocks = [steppedClock(times), steppedClock(times)];
    server = await scriptedServer((_req, res) => writeOnReads(res, clocks[server!.seen.length - 1]!, pieces));
    for (const [i, transport] of [{}, { fetch: globalThis.fetch }].entries()) {
      const r = await measureRequest(request(`${server.url}/v1`), options({ ...transport, now: clocks[i]!.now }));
      assert.equal(r.ok, true, r.error?.message);
      assert.equal(clocks[i]!.taken, times.length, 'one clock reading per piece, none after [DONE]');
      assert.deepEqual([r.startMs, r.ttfbMs, r.ttftMs, r.itlMs, r.e2eMs], [1000, 4, 64, [20, 20], 104]);
      // (E2E − TTFT) / (output tokens − 1); the trailer did not extend E2E.
      assert.equal(r.tpotMs, 40 / 4);
      assert.deepEqual([r.outputTokens, r.outputTokensSource, r.inputTokens, r.finishReason], [5, 'usage', 3, 'stop']);
    }
    assert.equal(server.seen[0]!.url, '/v1/chat/completions');
    assert.equal(server.seen[0]!.headers.authorization, `Bearer ${KEY}`);
  });

  it('reads a finished stream to its end so keep-alive reuses the connection', async () => {
    server = await scriptedServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chatChunk('hi'), '[DONE]'));
      await sleep(1);
      res.end();
    });
    for (let i = 0; i < 6; i++) {
      // A request ends only after its stream is drained, so the next one finds the socket free.
      assert.equal((await measureRequest(request(server.url), options())).ok, true);
    }
    assert.ok(server.connections <= 2, `${server.connections} connections for 6 sequential requests`);
  });

  it('anthropic-messages: x-api-key header and the event stream, output tokens from message_delta', async () => {
    const ev = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    server = await scriptedServer((_req, res) =>
      writeSlowly(res, [
        [0, ev('message_start', { type: 'message_start', message: { usage: { input_tokens: 9, output_tokens: 1 } } })],
        [0, ev('ping', { type: 'ping' })],
        [
          10,
          ev('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: 'Hi' },
          }),
        ],
        [
          10,
          ev('content_block_delta', {
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'text_delta', text: ' you' },
          }),
        ],
        [
          0,
          ev('message_delta', {
            type: 'message_delta',
            delta: { stop_reason: 'end_turn' },
            usage: { output_tokens: 3 },
          }),
        ],
        [0, ev('message_stop', { type: 'message_stop' })],
      ]),
    );
    const r = await measureRequest(request(`${server.url}/v1`, 'anthropic-messages'), options());
    assert.equal(r.ok, true, r.error?.message);
    assert.equal(server.seen[0]!.headers['x-api-key'], KEY);
    assert.equal(server.seen[0]!.headers.authorization, undefined);
    assert.deepEqual([r.outputTokens, r.inputTokens, r.finishReason, r.itlMs.length], [3, 9, 'end_turn', 1]);
  });

  it('openai-completions and ollama NDJSON streams; without usage the text is counted', async () => {
    server = await scriptedServer((req, res) =>
      req.url.endsWith('/completions')
        ? writeSlowly(res, [
            [
              5,
              sse({ choices: [{ index: 0, text: 'one two' }] }, { choices: [{ index: 0, text: ' three' }] }, '[DONE]'),
            ],
          ])
        : writeSlowly(
            res,
            [
              [
                5,
                '{"message":{"role":"assistant","content":"a b"},"done":false}\n{"message":{"content":" c"},"done":false}\n{"message":{"content":""},"done":true,"done_reason":"stop"}',
              ],
            ],
            'application/x-ndjson',
          ),
    );
    const completions = await measureRequest(request(`${server.url}/v1`, 'openai-completions'), options());
    assert.deepEqual([completions.ok, completions.outputTokens, completions.outputTokensSource], [true, 3, 'counted']);
    const ollama = await measureRequest(request(server.url, 'ollama-chat'), options());
    assert.deepEqual([ollama.ok, ollama.outputTokens, ollama.finishReason], [true, 3, 'stop']);
    assert.equal(server.seen[1]!.url, '/api/chat');
  });

  it('429 with retry-after: an http error with the endpoint message and the wait, key redacted', async () => {
    server = await scriptedServer((req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
      res.end(
        JSON.stringify({ error: { message: `Rate limit reached for key ${req.headers.authorization?.slice(7)}` } }),
      );
    });
    const r = await measureRequest(request(server.url), options());
    assert.deepEqual([r.ok, r.error?.class, r.error?.status, r.error?.retryAfterMs], [false, 'http', 429, 7000]);
    assert.match(r.error!.message, /HTTP 429 rate limited: Rate limit reached for key \[redacted\]; retry after 7 s/);
    assert.ok(!JSON.stringify(r).includes(KEY));
  });

  it('500, 401 and 404 keep the status and the endpoint message (a plain-text body too)', async () => {
    const statuses = [500, 401, 404];
    server = await scriptedServer((_req, res) => {
      const status = statuses[server!.seen.length - 1]!;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(`upstream said ${status}`);
    });
    for (const status of statuses) {
      const r = await measureRequest(request(server.url), options());
      assert.equal(r.error?.status, status);
      assert.match(r.error!.message, new RegExp(`^HTTP ${status} .*: upstream said ${status}$`));
    }
  });

  it('403 and 503 with retry-after end to end: classified, with the endpoint message and the wait', async () => {
    const answers: Array<[number, Record<string, string>, string]> = [
      [403, { 'content-type': 'application/json' }, JSON.stringify({ error: { message: 'model access denied' } })],
      [
        503,
        { 'content-type': 'application/json', 'retry-after': '3' },
        JSON.stringify({ error: { message: 'overloaded' } }),
      ],
      [502, { 'content-type': 'text/html' }, '<html><head><title>502 Bad Gateway</title></head></html>'],
    ];
    server = await scriptedServer((_req, res) => {
      const [status, headers, body] = answers[server!.seen.length - 1]!;
      res.writeHead(status, headers);
      res.end(body);
    });
    const [forbidden, unavailable, gateway] = [
      await measureRequest(request(server.url), options()),
      await measureRequest(request(server.url), options()),
      await measureRequest(request(server.url), options()),
    ];
    assert.deepEqual([forbidden.error?.class, forbidden.error?.status], ['http', 403]);
    assert.match(forbidden.error!.message, /^HTTP 403 .*model access denied/);
    assert.deepEqual([unavailable.error?.status, unavailable.error?.retryAfterMs], [503, 3000]);
    assert.match(unavailable.error!.message, /^HTTP 503 .*overloaded; retry after 3 s/);
    assert.equal(gateway.error?.status, 502);
    assert.match(gateway.error!.message, /502 Bad Gateway/);
  });

  it('a stream that never ends stops at the output cap, long before its timeout, keeping its TTFT', async () => {
    const piece = sse(chatChunk('x'.repeat(60_000)));
    server = await scriptedServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      while (!res.destroyed) {
        if (!res.write(piece)) await new Promise((resolve) => res.once('drain', resolve));
      }
    });
    // A timeout far beyond the test's own: only the cap can end this request in time.
    const r = await measureRequest(request(server.url), options({ timeoutMs: 600_000 }));
    assert.equal(r.error?.class, 'bad-stream');
    assert.match(r.error!.message, new RegExp(`more than ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters`));
    assert.ok(r.ttftMs !== undefined && r.ttftMs >= 0);
  });

  it('https to a server that does not speak TLS is a connection error naming TLS', async () => {
    server = await scriptedServer((_req, res) => void res.end('plain http'));
    const r = await measureRequest(request(server.url.replace('http:', 'https:')), options());
    assert.equal(r.error?.class, 'connection');
    assert.match(r.error!.message, /TLS|SSL/);
    assert.ok(!JSON.stringify(r).includes(KEY));
  });

  it('an HTML page or a JSON body with status 200 is "not an event stream", with what it said', async () => {
    server = await scriptedServer((_req, res) => {
      const html = server!.seen.length === 1;
      res.writeHead(200, { 'content-type': html ? 'text/html' : 'application/json' });
      res.end(
        html
          ? '<!DOCTYPE html><html><head><title>Sign in</title></head></html>'
          : '{"error":{"message":"streaming unsupported"}}',
      );
    });
    const html = await measureRequest(request(server.url), options());
    assert.equal(html.error?.class, 'not-event-stream');
    assert.match(html.error!.message, /got text\/html: an HTML page titled "Sign in"/);
    const json = await measureRequest(request(server.url), options());
    assert.match(json.error!.message, /application\/json: streaming unsupported/);
  });

  it('a redirect to another host is not followed, so the key never reaches it', async () => {
    const other = await scriptedServer((_req, res) => {
      res.end('stolen');
    });
    try {
      server = await scriptedServer((_req, res) => {
        res.writeHead(307, {
          location: `${other.url.replace('127.0.0.1', 'localhost')}/v1/chat/completions?token=abc`,
        });
        res.end();
      });
      // Both the default node:http transport and the global fetch adapter must refuse to follow.
      for (const transport of [{}, { fetch: globalThis.fetch }]) {
        const r = await measureRequest(request(server.url), options(transport));
        assert.equal(r.error?.class, 'redirect');
        assert.match(r.error!.message, /307 redirect to http:\/\/localhost:\d+ not followed/);
        assert.doesNotMatch(r.error!.message, /token=abc/);
      }
      assert.equal(other.seen.length, 0);
    } finally {
      await other.close();
    }
  });

  it('connection refused and DNS failure are connection errors that say which', async () => {
    const gone = await scriptedServer(() => undefined);
    await gone.close();
    const refused = await measureRequest(request(gone.url), options());
    assert.equal(refused.error?.class, 'connection');
    assert.match(refused.error!.message, /connection refused/);
    const dnsFailure = Object.assign(new TypeError('fetch failed'), {
      cause: Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' }),
    });
    const dns = await measureRequest(
      request('http://nope.invalid'),
      options({ fetch: () => Promise.reject(dnsFailure) }),
    );
    assert.deepEqual(
      [dns.error?.class, dns.error?.message],
      ['connection', 'DNS lookup failed: unknown host (ENOTFOUND)'],
    );
  });

  it('a compressed stream is decoded; gzip that lies is a bad stream', async () => {
    const body = sse(chatChunk('zipped'), '[DONE]');
    server = await scriptedServer((req, res) => {
      const lying = server!.seen.length === 2;
      assert.equal(req.headers['accept-encoding'], 'identity');
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(lying ? body : gzipSync(body));
    });
    const honest = await measureRequest(request(server.url), options());
    assert.deepEqual([honest.ok, honest.outputTokens], [true, 1]);
    const lying = await measureRequest(request(server.url), options());
    assert.equal(lying.error?.class, 'bad-stream');
    assert.match(lying.error!.message, /not valid gzip data \(Z_DATA_ERROR\)/);
  });

  it('a connection reset mid-stream is a connection error that keeps the TTFT seen so far', async () => {
    // The reset comes once the client has read the token (its second clock reading), not after a guessed delay.
    const clock = steppedClock([0, 7]);
    server = await scriptedServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chatChunk('partial')));
      await clock.readings(2);
      res.socket?.destroy();
    });
    const r = await measureRequest(request(server.url), options({ now: clock.now }));
    assert.equal(r.error?.class, 'connection');
    assert.match(r.error!.message, /stream broke after 1 content chunks/);
    assert.equal(r.ttftMs, 7);
  });

  it('a stalled stream times out; cancelling aborts at once', async () => {
    server = await scriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chatChunk('first')));
    });
    const stalled = await measureRequest(request(server.url), options({ timeoutMs: 150 }));
    assert.equal(stalled.error?.class, 'timeout');
    assert.match(stalled.error!.message, /within 150 ms/);

    // Cancelled once the client has read the first token (its second clock reading); the timeout is
    // far beyond the test's own, so only the cancellation can end the request in time.
    const clock = steppedClock([0, 7]);
    const cancel = new AbortController();
    void clock.readings(2).then(() => cancel.abort());
    const cancelled = await measureRequest(
      request(server.url),
      options({ timeoutMs: 600_000, signal: cancel.signal, now: clock.now }),
    );
    assert.deepEqual([cancelled.ok, cancelled.error?.class, cancelled.ttftMs], [false, 'cancelled', 7]);
  });

  it('error event inside a 200 stream, malformed JSON and a 10 MB line without newline are failures', async () => {
    const bodies = [
      sse(chatChunk('a'), { error: { message: `stream failed for key ${KEY}`, code: 'bad_request' } }),
      sse(chatChunk('a')) + 'data: {"choices": [\n\n',
      `data: ${'x'.repeat(10 * 1024 * 1024)}`,
    ];
    server = await scriptedServer((_req, res) => writeSlowly(res, [[0, bodies[server!.seen.length - 1]!]]));
    const inStream = await measureRequest(request(server.url), options());
    assert.equal(inStream.error?.class, 'stream-error');
    assert.equal(
      inStream.error?.message,
      'the endpoint reported an error inside the stream: stream failed for key [redacted] (bad_request)',
    );
    const malformed = await measureRequest(request(server.url), options());
    assert.equal(malformed.error?.class, 'bad-stream');
    const huge = await measureRequest(request(server.url), options());
    assert.equal(huge.error?.class, 'bad-stream');
    assert.match(huge.error!.message, /without a line end/);
  });
});

describe('streaming client with a scripted clock', () => {
  /** A fetch whose body delivers each chunk at a scripted clock time, and the clock itself. */
  function scripted(chunks: Array<[at: number, text: string]>, contentType = 'text/event-stream') {
    let t = 0;
    const now = () => t;
    let i = 0;
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = chunks[i++];
          if (!next) return controller.close();
          t = next[0];
          controller.enqueue(new TextEncoder().encode(next[1]));
        },
      },
      { highWaterMark: 0 },
    ); // pull only when the client reads, so the clock moves with each read
    const fetch = async () => new Response(body, { status: 200, headers: { 'content-type': contentType } });
    return { now, fetch };
  }
  const run = (chunks: Array<[number, string]>, extra: Partial<MeasureOptions> = {}) =>
    measureRequest(request('http://scripted'), options({ ...scripted(chunks), ...extra }));

  it('E2E − TTFT equals the sum of ITLs, and the usage trailer does not extend E2E', async () => {
    const r = await run([
      [3, sse({ choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] })],
      [100, sse(chatChunk('a'))],
      [125, sse(chatChunk(' b'), chatChunk(' c'))],
      [190, sse(chatChunk(' d'))],
      [900, sse({ choices: [], usage: { completion_tokens: 4 } }, '[DONE]')],
    ]);
    assert.deepEqual([r.ttfbMs, r.ttftMs, r.e2eMs, r.itlMs], [3, 100, 190, [25, 0, 65]]);
    assert.equal(
      r.e2eMs! - r.ttftMs!,
      r.itlMs.reduce((s, v) => s + v, 0),
    );
    assert.equal(r.tpotMs, (190 - 100) / 3);
  });

  it('a usage-only stream is a failure (no content), not a zero-latency success', async () => {
    const r = await run([
      [
        50,
        sse(
          { choices: [{ index: 0, delta: { role: 'assistant' } }] },
          { choices: [], usage: { completion_tokens: 0 } },
          '[DONE]',
        ),
      ],
    ]);
    assert.equal(r.ok, false);
    assert.equal(r.error?.class, 'no-content');
  });

  it('an Anthropic error event in a 200 stream is a failure', async () => {
    const r = await measureRequest(
      buildStreamRequest(
        { name: 't', kind: 'anthropic-messages', baseUrl: 'http://scripted', model: 'm' },
        KEY,
        [{ role: 'user', content: 'x' }],
        8,
      ),
      options(
        scripted([
          [10, 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'],
        ]),
      ),
    );
    assert.deepEqual([r.ok, r.error?.class], [false, 'stream-error']);
    assert.match(r.error!.message, /Overloaded/);
  });

  it('one output token gives no TPOT; without usage the counting function decides', async () => {
    const r = await run([[40, sse(chatChunk('word'), '[DONE]')]]);
    assert.deepEqual(
      [r.ttftMs, r.e2eMs, r.outputTokens, r.outputTokensSource, r.tpotMs],
      [40, 40, 1, 'counted', undefined],
    );
  });

  it('a stream with no content token says what it did send: usage, a finish reason, or nothing', async () => {
    const role = { choices: [{ index: 0, delta: { role: 'assistant' } }] };
    const finished = await run([
      [5, sse(role, { choices: [{ index: 0, delta: {}, finish_reason: 'length' }] }, '[DONE]')],
    ]);
    const usageOnly = await run([[5, sse(role, { choices: [], usage: { completion_tokens: 2 } }, '[DONE]')]]);
    const nothing = await run([[5, sse(role, '[DONE]')]]);
    assert.deepEqual(
      [finished, usageOnly, nothing].map((r) => [r.ok, r.error?.class, r.error?.message]),
      [
        [
          false,
          'no-content',
          'the stream ended without any content token (only role, usage or finish chunks; finish reason length)',
        ],
        [false, 'no-content', 'the stream ended without any content token (only role, usage or finish chunks)'],
        [false, 'no-content', 'the stream ended without any content token'],
      ],
    );
  });

  it('ignores what follows [DONE] in the same read', async () => {
    const r = await run([
      [30, sse(chatChunk('a'), '[DONE]', chatChunk(' b c d'), { choices: [], usage: { completion_tokens: 9 } })],
    ]);
    assert.deepEqual([r.ok, r.outputTokens, r.outputTokensSource, r.e2eMs], [true, 1, 'counted', 30]);
  });

  it('usage reporting 0 output tokens is not believed: the text is counted; no finish reason, no field', async () => {
    const r = await run([
      [10, sse(chatChunk('a'))],
      [20, sse(chatChunk(' b'), { choices: [], usage: { prompt_tokens: 0, completion_tokens: 0 } }, '[DONE]')],
    ]);
    assert.deepEqual([r.outputTokens, r.outputTokensSource, r.tpotMs, r.inputTokens], [2, 'counted', 10, 0]);
    assert.ok(!('finishReason' in r), JSON.stringify(r));
  });

  it('usage counts are taken only as whole numbers from 0 to 100 million', async () => {
    const withUsage = (usage: Record<string, number>) =>
      run([
        [10, sse(chatChunk('a'))],
        [20, sse(chatChunk(' b'), { choices: [], usage }, '[DONE]')],
      ]);
    const top = await withUsage({ prompt_tokens: MAX_USAGE_TOKENS, completion_tokens: 5 });
    assert.deepEqual([top.inputTokens, top.outputTokens, top.outputTokensSource], [MAX_USAGE_TOKENS, 5, 'usage']);
    for (const bad of [MAX_USAGE_TOKENS + 1, -1, 2.5]) {
      const r = await withUsage({ prompt_tokens: bad, completion_tokens: bad });
      assert.deepEqual([r.inputTokens, r.outputTokens, r.outputTokensSource], [undefined, 2, 'counted'], `${bad}`);
    }
  });

  it('output of exactly the cap is kept', async () => {
    // In lines under the 1 MiB line limit: 4 × 1,000,000 + 194,304 = 4 MiB.
    const parts = [1e6, 1e6, 1e6, 1e6, MAX_OUTPUT_CHARS - 4e6].map((n) => sse(chatChunk('x'.repeat(n))));
    const r = await run([[10, parts.join('') + sse('[DONE]')]]);
    assert.equal(r.ok, true, r.error?.message);
  });

  it('an unreadable stream event is named in the error', async () => {
    const r = await run([[10, 'data: {"choices": [\n\n']]);
    assert.deepEqual(
      [r.error?.class, r.error?.message],
      ['bad-stream', 'unreadable stream event: not JSON: {"choices": ['],
    );
  });

  it('TPOT needs two or more tokens, an E2E and a TTFT', () => {
    const base = { startMs: 0, ok: true, itlMs: [] };
    assert.equal(withOutputTokens({ ...base, ttftMs: 10, e2eMs: 30 }, 3, 'usage').tpotMs, 10);
    assert.equal(withOutputTokens({ ...base, ttftMs: 10, e2eMs: 30, tpotMs: 1 }, 1, 'usage').tpotMs, undefined);
    assert.ok(!('tpotMs' in withOutputTokens({ ...base, ttftMs: 10 }, 3, 'counted')));
    assert.ok(!('tpotMs' in withOutputTokens({ ...base, e2eMs: 30 }, 3, 'counted')));
  });
});

describe('streaming client: what each failure says', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('a request cancelled before it is sent is not sent', async () => {
    server = await scriptedServer((_req, res) => void res.end());
    const cancel = new AbortController();
    cancel.abort();
    const r = await measureRequest(request(server.url), options({ signal: cancel.signal }));
    assert.deepEqual(r, {
      startMs: r.startMs,
      ok: false,
      itlMs: [],
      error: { class: 'cancelled', message: 'cancelled before sending' },
    });
    assert.equal(server.seen.length, 0);
  });

  it('a timeout says whether a content token came; a cancel says cancelled; neither leaves a listener', async () => {
    let withToken = false;
    server = await scriptedServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (withToken) res.write(sse(chatChunk('first')));
    });
    const signal = new AbortController().signal;
    const silent = await measureRequest(request(server.url), options({ timeoutMs: 100, signal }));
    assert.deepEqual(silent.error, {
      class: 'timeout',
      message: 'no complete response within 100 ms (no content token yet)',
    });
    withToken = true;
    const started = await measureRequest(request(server.url), options({ timeoutMs: 100, signal }));
    assert.deepEqual(started.error, { class: 'timeout', message: 'no complete response within 100 ms' });
    assert.equal(getEventListeners(signal, 'abort').length, 0);

    const cancel = new AbortController();
    const held = await scriptedServer(() => cancel.abort());
    try {
      const cancelled = await measureRequest(request(held.url), options({ signal: cancel.signal }));
      assert.deepEqual(cancelled.error, { class: 'cancelled', message: 'cancelled' });
    } finally {
      await held.close();
    }
  });

  it('3xx is a redirect, from 300 to 399, with or without a readable location; 400 is an HTTP error', async () => {
    const answers: Array<[number, Record<string, string>]> = [
      [300, {}],
      [399, { location: 'http://[not a host' }],
      [400, { location: '/elsewhere' }],
    ];
    server = await scriptedServer((_req, res) => {
      const [status, headers] = answers[server!.seen.length - 1]!;
      res.writeHead(status, headers);
      res.end();
    });
    const [plain, unreadable, bad] = [
      await measureRequest(request(server.url), options()),
      await measureRequest(request(server.url), options()),
      await measureRequest(request(server.url), options()),
    ];
    assert.deepEqual(plain.error, {
      class: 'redirect',
      status: 300,
      message:
        'HTTP 300 redirect not followed, so the API key is not sent to another address; use the final URL as the base URL',
    });
    assert.match(unreadable.error!.message, /^HTTP 399 redirect to an unreadable location not followed/);
    assert.deepEqual([bad.error?.class, bad.error?.status], ['http', 400]);
  });

  it('an HTTP error is an HTTP error even when it claims to be an event stream', async () => {
    server = await scriptedServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/event-stream' });
      res.end(sse({ error: { message: 'engine crashed' } }));
    });
    const r = await measureRequest(request(server.url), options());
    assert.deepEqual([r.error?.class, r.error?.status], ['http', 500]);
  });

  it('a 200 without a content type, or with an empty body, says so', async () => {
    server = await scriptedServer((_req, res) => {
      if (server!.seen.length === 1) res.removeHeader('content-type');
      else res.setHeader('content-type', 'text/plain; charset=utf-8');
      res.writeHead(200);
      res.end();
    });
    const untyped = await measureRequest(request(server.url), options());
    assert.deepEqual(untyped.error, {
      class: 'not-event-stream',
      status: 200,
      message: 'expected a streaming response but got no content type',
    });
    const plain = await measureRequest(request(server.url), options());
    assert.equal(plain.error?.message, 'expected a streaming response but got text/plain');
  });
});
