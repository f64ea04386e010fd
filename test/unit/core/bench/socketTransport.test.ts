// The streaming client's own HTTP/1.1 transport (core/bench/socketTransport.ts) against local servers
// on 127.0.0.1: TLS, which connections it keeps, what it refuses to send, cancellation before the
// head. client.test.ts and timestamps.test.ts run the rest of the client over it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { measureRequest, type MeasureOptions } from '../../../../src/core/bench/client';
import { buildStreamRequest } from '../../../../src/core/bench/runner';
import { socketTransport, trustCertificateForTests } from '../../../../src/core/bench/socketTransport';
import { chatChunk, scriptedServer, sse, type ScriptedServer } from '../../helpers/scriptedServer';

const KEY = 'sk-socket-transport-test';
const request = (url: string) =>
  buildStreamRequest(
    { name: 't', kind: 'openai-chat', baseUrl: url, model: 'm' },
    KEY,
    [{ role: 'user', content: 'Hi?' }],
    16,
  );
const options: MeasureOptions = { timeoutMs: 10_000, countTokens: () => 1 };
const STREAM = sse(chatChunk('hi'), { choices: [], usage: { completion_tokens: 1 } }, '[DONE]');
const tls = (name: string) => readFileSync(join(__dirname, '../../../fixtures/tls', name), 'utf8');

/**
 * A TCP server answering each request it reads (up to its blank line and body) with `reply(n)`, then
 * ending the connection when `closeAfter` is set; counts connections.
 */
async function rawServer(
  reply: (n: number) => string,
  closeAfter = false,
): Promise<{ url: string; connections: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let answered = 0;
  const state = {
    url: '',
    connections: 0,
    close: () => new Promise<void>((r) => (sockets.forEach((s) => s.destroy()), server.close(() => r()))),
  };
  const server: Server = createNetServer((socket) => {
    state.connections++;
    sockets.add(socket);
    let seen = '';
    socket.on('data', (data) => {
      seen += data.toString('latin1');
      const end = seen.indexOf('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(seen)?.[1] ?? 0);
      if (end === -1 || seen.length < end + 4 + length) return;
      seen = seen.slice(end + 4 + length);
      if (closeAfter) socket.end(reply(answered++));
      else socket.write(reply(answered++));
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

const sseResponse = (extraHead = '', after = '') =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: ${STREAM.length}\r\n${extraHead}\r\n${STREAM}${after}`;

describe('streaming client: its HTTP/1.1 socket transport', () => {
  let server: ScriptedServer | undefined;
  afterEach(async () => {
    trustCertificateForTests(undefined);
    await server?.close();
    server = undefined;
  });

  it('https: the stream is read over TLS and its connection reused; an untrusted certificate is a TLS error', async () => {
    let connections = 0;
    const https = createHttpsServer({ key: tls('localhost.key'), cert: tls('localhost.crt') }, (_req, res) => {
      _req.resume();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(STREAM);
    });
    https.on('secureConnection', () => connections++);
    await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', () => resolve()));
    const url = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
    try {
      // Not trusted: the handshake fails, the key never leaves.
      const refused = await measureRequest(request(url), options);
      assert.equal(refused.error?.class, 'connection');
      assert.match(refused.error!.message, /TLS error/);
      trustCertificateForTests(tls('localhost.crt'));
      for (let i = 0; i < 3; i++) {
        const r = await measureRequest(request(url), options);
        assert.equal(r.ok, true, r.error?.message);
        assert.deepEqual([r.outputTokens, r.outputTokensSource], [1, 'usage']);
      }
      assert.equal(connections, 1, 'one connection for three requests');
      // A certificate other than the trusted one is refused too.
      trustCertificateForTests(tls('other.crt'));
      const other = await measureRequest(request(url.replace('127.0.0.1', 'localhost')), options);
      assert.equal(other.error?.class, 'connection');
      assert.match(other.error!.message, /TLS error/);
    } finally {
      https.closeAllConnections();
      await new Promise((resolve) => https.close(resolve));
    }
  });

  it('a header with a line break is refused before anything is sent, without echoing its value', async () => {
    server = await scriptedServer((_req, res) => void res.end());
    const sent = socketTransport(`${server.url}/v1/chat/completions`, {
      headers: { 'x-note': `a\r\nX-Injected: ${KEY}` },
      body: '{}',
      signal: new AbortController().signal,
      now: () => performance.now(),
    });
    await assert.rejects(sent, (error: Error) => !error.message.includes(KEY) && /x-note/.test(error.message));
    const bad = request(server.url);
    bad.headers['x-note'] = 'a\nb';
    const r = await measureRequest(bad, options);
    assert.equal(r.error?.class, 'connection');
    assert.equal(server.seen.length, 0);
    assert.equal(server.connections, 0);
  });

  it('keeps a connection only when its response ended cleanly and the server keeps it more than a second', async () => {
    const cases: Array<[string, (n: number) => string, number]> = [
      ['plain keep-alive', () => sseResponse(), 1],
      ['bytes after the body', () => sseResponse('', 'HTTP/1.1 200 OK\r\n'), 3],
      ['keep-alive timeout=1', () => sseResponse('Keep-Alive: timeout=1\r\n'), 3],
      ['keep-alive timeout=5', () => sseResponse('Keep-Alive: timeout=5\r\n'), 1],
      ['connection: close', () => sseResponse('Connection: close\r\n'), 3],
    ];
    for (const [name, reply, connections] of cases) {
      const raw = await rawServer(reply);
      try {
        for (let i = 0; i < 3; i++) {
          const r = await measureRequest(request(raw.url), options);
          assert.equal(r.ok, true, `${name}: ${r.error?.message}`);
        }
        assert.equal(raw.connections, connections, name);
      } finally {
        await raw.close();
      }
    }
  });

  it('a server that does not speak HTTP/1.x is a connection error that says so', async () => {
    const raw = await rawServer(() => 'SSH-2.0-OpenSSH_9.6\r\n\r\n');
    try {
      const r = await measureRequest(request(raw.url), options);
      assert.equal(r.error?.class, 'connection');
      assert.match(r.error!.message, /did not answer with HTTP\/1\.x/);
    } finally {
      await raw.close();
    }
  });

  it('a body that runs to the close is read to its end; a chunked body cut by the close is broken', async () => {
    const closing = await rawServer(() => `HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n${STREAM}`, true);
    const cut = await rawServer(
      () =>
        `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n9\r\ndata: {}\n\r\n`,
      true,
    );
    try {
      for (let i = 0; i < 2; i++) {
        const whole = await measureRequest(request(closing.url), options);
        assert.equal(whole.ok, true, whole.error?.message);
        assert.deepEqual([whole.outputTokens, whole.outputTokensSource], [1, 'usage']);
      }
      assert.equal(closing.connections, 2, 'a connection whose body ran to the close is not reused');
      const broken = await measureRequest(request(cut.url), options);
      assert.equal(broken.error?.class, 'connection');
      assert.match(broken.error!.message, /closed before the body ended/);
    } finally {
      await Promise.all([closing.close(), cut.close()]);
    }
  });

  it('cancelled while waiting for the head: cancelled at once, and that connection is not reused', async () => {
    let answer = false;
    let arrived!: () => void;
    const first = new Promise<void>((resolve) => (arrived = resolve));
    server = await scriptedServer((_req, res) => {
      arrived();
      if (!answer) return;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(STREAM);
    });
    const cancel = new AbortController();
    const pending = measureRequest(request(server.url), { ...options, timeoutMs: 600_000, signal: cancel.signal });
    await first;
    cancel.abort();
    const r = await pending;
    assert.deepEqual([r.ok, r.error?.class], [false, 'cancelled']);
    answer = true;
    const next = await measureRequest(request(server.url), options);
    assert.equal(next.ok, true, next.error?.message);
    assert.equal(server.connections, 2);
  });

  it('an error page read as text leaves its connection for the next request', async () => {
    server = await scriptedServer((_req, res) => {
      if (server!.seen.length === 1) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.write('{"error":{"message":"try');
        return void res.end(' later"}}');
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(STREAM);
    });
    const failed = await measureRequest(request(server.url), options);
    assert.equal(failed.error?.status, 500);
    assert.match(failed.error!.message, /try later/);
    const ok = await measureRequest(request(server.url), options);
    assert.equal(ok.ok, true, ok.error?.message);
    assert.equal(server.connections, 1);
  });
});
