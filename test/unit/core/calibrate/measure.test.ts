import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { measureCalibration, type CalibrationRun } from '../../../../src/core/calibrate/measure';
import type { ChatMessage } from '../../../../src/core/prompt/types';
import { chatChunk, scriptedServer, sse, type ScriptedServer } from '../../helpers/scriptedServer';

const KEY = 'sk-calibrate-5e1d';
const messages: ChatMessage[] = [
  { role: 'system', content: 'S'.repeat(40) },
  { role: 'user', content: 'U'.repeat(60) },
];
const check: ChatMessage[] = [{ role: 'user', content: 'C'.repeat(70) }];
const chars = (m: readonly ChatMessage[]) => m.reduce((n, x) => n + x.content.length, 0);

/** The prompt's characters as the server saw them, without the cold nonce `[…] ` put before the first message. */
function promptChars(body: string): number {
  const sent = (JSON.parse(body) as { messages: ChatMessage[] }).messages;
  return chars(sent) - (/^\[[^\]]*\] /.exec(sent[0]!.content)?.[0].length ?? 0);
}

/** Three content tokens; usage reports twice the characters as prompt tokens unless told otherwise. */
function answer(res: ServerResponse, promptTokens: number | undefined, tokens = ['a', ' b', ' c']): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(
    sse(
      ...tokens.map((t) => chatChunk(t)),
      ...(promptTokens === undefined
        ? []
        : [{ choices: [], usage: { prompt_tokens: promptTokens, completion_tokens: tokens.length } }]),
      '[DONE]',
    ),
  );
}

describe('measuring a calibration against a local scripted server', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  const run = (over: Partial<CalibrationRun> = {}): CalibrationRun => ({
    endpoint: { name: 'e', kind: 'openai-chat', baseUrl: `${server!.url}/v1`, model: 'm' },
    messages,
    fractions: [0.25, 0.5, 1],
    requests: 2,
    maxTokens: 3,
    timeoutMs: 5000,
    countLocal: chars,
    countTokens: (t) => t.split(' ').length,
    ...over,
  });

  it('warms up at the longest length, then takes the lengths in turns, each request cold, the check among them', async () => {
    server = await scriptedServer((req, res) => answer(res, 2 * promptChars(req.body)));
    const progress: Array<[number, number]> = [];
    let fetched = 0;
    const m = await measureCalibration(
      run({
        apiKey: KEY,
        check,
        onProgress: (p) => progress.push([p.done, p.total]),
        fetch: (url, init) => {
          fetched++;
          return globalThis.fetch(url, init);
        },
      }),
    );
    // 25 % of 100 characters is the system message cut to 25, then "Continue." as the user turn.
    assert.deepEqual(
      server.seen.map((s) => promptChars(s.body)),
      [100, 34, 50, 100, 70, 34, 50, 100, 70],
    );
    assert.equal(fetched, 9);
    assert.ok(server.seen.every((s) => s.headers.authorization === `Bearer ${KEY}`));
    const firsts = server.seen.map((s) => (JSON.parse(s.body) as { messages: ChatMessage[] }).messages[0]!.content);
    assert.ok(
      firsts.every((c) => /^\[[^\]]+\] /.test(c)),
      'every request carries a nonce',
    );
    assert.equal(new Set(firsts).size, firsts.length, 'no two requests share a prefix');
    assert.deepEqual(
      progress,
      [1, 2, 3, 4, 5, 6, 7, 8].map((d) => [d, 8]),
    );

    assert.deepEqual(
      m.lengths.map((l) => [l.fraction, l.localTokens, l.endpointTokens, l.ttftMs.length, l.requests, l.failed]),
      [
        [0.25, 34, 68, 2, 2, 0],
        [0.5, 50, 100, 2, 2, 0],
        [1, 100, 200, 2, 2, 0],
      ],
    );
    assert.ok(m.lengths.every((l) => l.ttftMs.every((t) => Number.isFinite(t) && t >= 0)));
    assert.deepEqual(
      [m.check?.fraction, m.check?.localTokens, m.check?.endpointTokens, m.check?.ttftMs.length],
      [1, 70, 140, 2],
    );
    // TPOT from the fitted lengths' requests only, not the check's.
    assert.equal(m.tpotMs.length, 6);
    assert.deepEqual([m.errors, m.cancelled], [[], false]);
  });

  it("records failures per length with one message per error class, and the endpoint's count only when every success had one", async () => {
    let n = 0;
    server = await scriptedServer((req, res) => {
      const c = promptChars(req.body);
      n++;
      // After the warm-up: the 50 % length fails twice with 500; one 100 % answer has no usage.
      if (c === 50) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `overloaded ${n}` } }));
      } else if (c === 100 && n === 4) answer(res, undefined);
      else answer(res, 2 * c, c === 34 ? ['one'] : undefined);
    });
    const m = await measureCalibration(run());
    assert.deepEqual(
      m.lengths.map((l) => [l.endpointTokens, l.ttftMs.length, l.requests, l.failed]),
      [
        [68, 2, 2, 0],
        [undefined, 0, 2, 2],
        [undefined, 2, 2, 0],
      ],
    );
    assert.ok(m.lengths[1]!.ttftMs.every((t) => t !== undefined));
    // One message per error class, the first seen; none for the successes.
    assert.deepEqual(m.errors, ['HTTP 500 server error: overloaded 3']);
    // Single-token answers at 25 % have no TPOT: only the 100 % requests give one.
    assert.equal(m.tpotMs.length, 2);
    assert.equal(m.check, undefined);
    assert.ok(!('check' in m));
  });

  it('stops when cancelled: the request cut short is dropped, not counted as a failure', async () => {
    const cancel = new AbortController();
    server = await scriptedServer((req, res) => {
      // The fourth request (round 1, 100 %) is cancelled while the server holds it.
      if (server!.seen.length === 4) {
        cancel.abort();
        return;
      }
      answer(res, 2 * promptChars(req.body));
    });
    const m = await measureCalibration(run({ signal: cancel.signal, requests: 3 }));
    assert.equal(m.cancelled, true);
    assert.equal(server.seen.length, 4, 'nothing is sent after the cancel');
    assert.deepEqual(
      m.lengths.map((l) => [l.requests, l.failed]),
      [
        [1, 0],
        [1, 0],
        [0, 0],
      ],
    );
    assert.deepEqual(m.errors, []);
  });
});
