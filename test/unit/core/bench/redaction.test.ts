import assert from 'node:assert/strict';
import { measureRequest } from '../../../../src/core/bench/client';
import { endpointText, redact } from '../../../../src/core/bench/errors';
import { buildStreamRequest } from '../../../../src/core/bench/runner';
import type { RequestRecord } from '../../../../src/core/bench/result';
import { parseEndpoint } from '../../../../src/core/bench/endpoints';
import { chatChunk, scriptedServer, sse, writeSlowly } from '../../helpers/scriptedServer';

/** Issue 16 item 4: an endpoint that echoes the key anywhere never gets it into a result. */
const KEY = 'sk-redact-4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c';

/** The key, its base64 at any alignment, and every 12-character piece of it. */
function leaks(text: string): string[] {
  const found: string[] = [];
  for (let i = 0; i + 12 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 12))) found.push(KEY.slice(i, i + 12));
  for (const prefix of ['', 'a', 'ab', 'user:'])
    for (const b64 of [Buffer.from(prefix + KEY).toString('base64'), Buffer.from(prefix + KEY).toString('base64url')])
      if (text.includes(b64.slice(8, 40))) found.push(`base64 of ${prefix}key`);
  return found;
}

async function measure(script: Parameters<typeof scriptedServer>[0]): Promise<RequestRecord> {
  const server = await scriptedServer(script);
  try {
    const parsed = parseEndpoint({ name: 'e', baseUrl: server.url, model: 'm' });
    assert.ok(parsed.ok);
    const request = buildStreamRequest(parsed.value, KEY, [{ role: 'user', content: 'hi' }], 8);
    return await measureRequest(request, { timeoutMs: 10_000, countTokens: (t) => t.length, secrets: [KEY] });
  } finally {
    await server.close();
  }
}

describe('redaction of endpoint-supplied strings', () => {
  it('redact finds the key in base64 at every alignment, standard and URL-safe', () => {
    for (const prefix of ['', 'a', 'ab', 'Basic user:'])
      for (const encoding of ['base64', 'base64url'] as const) {
        const text = `seen: ${Buffer.from(prefix + KEY).toString(encoding)} end`;
        assert.deepEqual(leaks(redact(text, [KEY])), [], `${prefix} ${encoding}`);
      }
  });

  it('redacts before clipping: a key straddling the cut leaves no piece behind', () => {
    for (let at = 250; at < 310; at += 7) {
      const text = `${'x'.repeat(at)}${KEY} trailing`;
      const safe = endpointText(text, [KEY]);
      assert.ok(safe.length <= 300, `${safe.length}`);
      assert.deepEqual(leaks(safe), [], `key at ${at}`);
    }
    assert.equal(endpointText('a\nforged line\r\u001b[2Jb', []), 'a forged line [2Jb');
  });

  it('a finish reason carrying the key is redacted (and clipped) in the record', async () => {
    const record = await measure((_req, res) =>
      writeSlowly(res, [
        [0, sse(chatChunk('Hello'))],
        [
          0,
          sse({
            ...chatChunk(null),
            choices: [{ index: 0, delta: {}, finish_reason: `stop ${KEY} ${'z'.repeat(500)}` }],
          }),
        ],
        [0, sse('[DONE]')],
      ]),
    );
    assert.equal(record.ok, true);
    assert.match(record.finishReason ?? '', /^stop \[redacted\] z+…$/);
    assert.ok((record.finishReason ?? '').length <= 64);
    assert.deepEqual(leaks(JSON.stringify(record)), []);
  });

  it('errors in the stream, in bodies and in unreadable frames: redacted whole, then clipped', async () => {
    const padded = `${'e'.repeat(290)}${KEY}`;
    const cases: Array<Parameters<typeof scriptedServer>[0]> = [
      (_req, res) => writeSlowly(res, [[0, sse({ error: { message: padded, type: KEY } })]]),
      (_req, res) => writeSlowly(res, [[0, `data: {not json ${padded}\n\n`]]),
      (_req, res) => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `${padded} ${Buffer.from(KEY).toString('base64')}` } }));
      },
      (_req, res) => {
        res.writeHead(200, { 'content-type': `text/html; ${KEY}` });
        res.end(`${'h'.repeat(295)}${KEY}`);
      },
    ];
    for (const script of cases) {
      const record = await measure(script);
      assert.equal(record.ok, false);
      const message = record.error?.message ?? '';
      assert.ok(message.length < 500, `${message.length}: ${message.slice(0, 80)}`);
      assert.deepEqual(leaks(JSON.stringify(record)), [], message);
      assert.doesNotMatch(message, /\n/);
    }
  });
});
