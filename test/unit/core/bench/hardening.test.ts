import assert from 'node:assert/strict';
import { measureRequest } from '../../../../src/core/bench/client';
import { parseEndpoint, type EndpointConfig } from '../../../../src/core/bench/endpoints';
import { benchResultCsv } from '../../../../src/core/bench/export';
import type { BenchResult } from '../../../../src/core/bench/result';
import { buildStreamRequest, runBenchmark } from '../../../../src/core/bench/runner';
import { chatChunk, scriptedServer, sleep, sse, writeSlowly } from '../../helpers/scriptedServer';

/** Issue 16 item 7: the smaller holes in the benchmark client. */
function endpoint(baseUrl: string): EndpointConfig {
  const parsed = parseEndpoint({ name: 'e', baseUrl, model: 'm' });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.value;
}

describe('benchmark client hardening (issue 16 item 7)', () => {
  it('an upper-case HTTPS:// base URL is https (it failed with "Protocol not supported")', async () => {
    const server = await scriptedServer((_req, res) => void res.end('plain http'));
    try {
      const e = endpoint(server.url.replace('http://', 'HTTPS://'));
      assert.match(e.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/);
      const record = await measureRequest(buildStreamRequest(e, undefined, [{ role: 'user', content: 'hi' }], 4), {
        timeoutMs: 5000,
        countTokens: (t) => t.length,
      });
      assert.equal(record.error?.class, 'connection');
      assert.doesNotMatch(record.error?.message ?? '', /Protocol/);
    } finally {
      await server.close();
    }
  });

  it('base URLs with a user name or password are refused, never echoed', () => {
    const parsed = parseEndpoint({ name: 'e', baseUrl: 'http://user:s3cret@127.0.0.1:8000/v1', model: 'm' });
    assert.equal(parsed.ok, false);
    assert.match(parsed.ok ? '' : parsed.error, /baseUrl: must not hold a user name or password/);
    assert.doesNotMatch(parsed.ok ? '' : parsed.error, /s3cret/);
  });

  it('implausible usage numbers are ignored: the output is counted (1e308 made TPOT 0)', async () => {
    const server = await scriptedServer((_req, res) =>
      writeSlowly(res, [
        [0, sse(chatChunk('one two three'))],
        [5, sse(chatChunk(' four'))],
        [0, sse({ choices: [], usage: { prompt_tokens: -3, completion_tokens: 1e308 } }, '[DONE]')],
      ]),
    );
    try {
      const record = await measureRequest(
        buildStreamRequest(endpoint(server.url), undefined, [{ role: 'user', content: 'hi' }], 4),
        { timeoutMs: 5000, countTokens: (t) => t.split(' ').length },
      );
      assert.equal(record.ok, true);
      assert.equal(record.outputTokensSource, 'counted');
      assert.equal(record.outputTokens, 4);
      assert.equal(record.inputTokens, undefined);
      // TPOT over the 4 counted tokens, not 1e308. Not asserted > 0: a client descheduled past the
      // 5 ms gap (a host stealing CPU) reads both chunks at once, and then the measured gap is 0.
      const { ttftMs, e2eMs, tpotMs } = record;
      assert.ok(ttftMs !== undefined && e2eMs !== undefined && tpotMs !== undefined, JSON.stringify(record));
      assert.ok(Math.abs(tpotMs - (e2eMs - ttftMs) / 3) < 1e-9, JSON.stringify(record));
    } finally {
      await server.close();
    }
  });

  it('a request draining after [DONE] still counts against the concurrency', async () => {
    // [DONE], then the body stays open a while before it ends (a server flushing its last chunk late).
    const server = await scriptedServer(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse(chatChunk('Hi'), '[DONE]'));
      await sleep(150);
      res.end();
    });
    try {
      const result = await runBenchmark({
        endpoint: endpoint(server.url),
        messages: [{ role: 'user', content: 'hi' }],
        maxTokens: 4,
        requests: 8,
        warmup: 0,
        concurrency: [2],
        cache: 'warm',
        timeoutMs: 5000,
        countTokens: (t) => t.length,
      });
      assert.equal(result.modes[0]!.levels[0]!.summary.succeeded, 8);
      assert.equal(server.maxOpen, 2, 'requests open on the server at once');
    } finally {
      await server.close();
    }
  });

  it('timeouts above 2^31-1 ms are held there instead of firing after 1 ms', async () => {
    const server = await scriptedServer((_req, res) => writeSlowly(res, [[50, sse(chatChunk('Hi'), '[DONE]')]]));
    try {
      const result = await runBenchmark({
        endpoint: endpoint(server.url),
        messages: [{ role: 'user', content: 'hi' }],
        maxTokens: 4,
        requests: 2,
        warmup: 0,
        concurrency: [1],
        cache: 'warm',
        timeoutMs: 2 ** 31,
        maxDurationMs: 30 * 24 * 3600 * 1000,
        countTokens: (t) => t.length,
      });
      assert.equal(result.partial, false);
      assert.equal(result.modes[0]!.levels[0]!.summary.succeeded, 2);
    } finally {
      await server.close();
    }
  });

  it('CSV cells starting with TAB or CR are neutralised like =, +, - and @', () => {
    const result = {
      modes: [
        {
          cache: 'cold',
          levels: [
            {
              label: 'c=1',
              concurrency: 1,
              requests: [
                { startMs: 0, ok: false, itlMs: [], error: { class: 'http', message: '\t=cmd|calc' } },
                { startMs: 1, ok: false, itlMs: [], error: { class: 'http', message: '\r=cmd|calc' } },
              ],
            },
          ],
        },
      ],
    } as unknown as BenchResult;
    const lines = benchResultCsv(result).split('\r\n');
    assert.match(lines[1] ?? '', /,"'\t=cmd\|calc"$/);
    assert.ok(benchResultCsv(result).includes(`"'\r=cmd|calc"`));
  });
});
