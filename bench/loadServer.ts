// The load server of `npm run bench -- client`, run in its own process (child_process.fork), so the
// client's timings are not taken on a loop or in a process that also writes the tokens.
// It streams OpenAI-style SSE on a schedule the request names and records when each request arrived
// and when it wrote each token: the server-side truth the client's TTFT and ITLs are compared with.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import { monotonicMs } from './monotonic';

/** Parent → server: send back (and forget) the writes recorded so far. */
export interface CollectMessage {
  collect: true;
}

/** Server → parent, once listening. */
export interface ListeningMessage {
  port: number;
}

/**
 * Server → parent: per request tag, [arrival, write of token 0, write of token 1, …] in ms of
 * CLOCK_MONOTONIC (`monotonicMs`), the clock every process on the machine reads alike.
 */
export interface WritesMessage {
  writes: Record<string, number[]>;
  /** CPU time (user + system) the server process used since the last collect, in µs. */
  cpuUs: number;
  /** The server's garbage-collection pauses since the last collect, in ms: it notices arrivals late meanwhile. */
  gcPausesMs: number[];
}

const TOKEN = 'data: {"choices":[{"index":0,"delta":{"content":" tok"}}]}\n\n';
/** TOKEN as one HTTP/1.1 chunk, written straight to the socket: one write call, nothing for node to format. */
const TOKEN_CHUNK = Buffer.from(`${Buffer.byteLength(TOKEN).toString(16)}\r\n${TOKEN}\r\n`);
const trailer = (tokens: number) => `data: {"choices":[],"usage":{"completion_tokens":${tokens}}}\n\ndata: [DONE]\n\n`;

const writes = new Map<string, number[]>();
let cpu = process.cpuUsage();
let gcPausesMs: number[] = [];
new PerformanceObserver((list) => gcPausesMs.push(...list.getEntries().map((e) => e.duration))).observe({
  entryTypes: ['gc'],
});

/**
 * The request's `model` is `ttftMs,itlMs,tokens` and its first message the tag the writes are filed
 * under.
 */
function serve(req: IncomingMessage, res: ServerResponse): void {
  const arrived = monotonicMs();
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    const request = JSON.parse(body) as { model: string; messages: Array<{ content: string }> };
    const [ttft = 0, itl = 0, tokens = 0] = request.model.split(',').map(Number);
    const times = [arrived];
    writes.set(request.messages[0]!.content, times);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    let k = 0;
    const tick = () => {
      if (res.destroyed) return;
      if (k === tokens) return void res.end(trailer(tokens));
      // The response is chunked (HTTP/1.1, no length): the token goes to the socket as one chunk,
      // whose write() makes the syscall at once, right after the truth is stamped. (res.write would
      // cork the socket and send on the next tick.)
      times.push(monotonicMs());
      res.socket?.write(TOKEN_CHUNK);
      k++;
      setTimeout(tick, Math.max(0, arrived + ttft + k * itl - monotonicMs()));
    };
    setTimeout(tick, Math.max(0, arrived + ttft - monotonicMs()));
  });
}

const server = createServer({ noDelay: true, keepAliveTimeout: 60_000 }, serve);
// A level of 2,000 streams opens 2,000 sockets at once.
server.maxConnections = 100_000;
server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => {
  process.send!({ port: (server.address() as AddressInfo).port } satisfies ListeningMessage);
});
process.on('message', (message: CollectMessage) => {
  if (!message.collect) return;
  const used = process.cpuUsage(cpu);
  cpu = process.cpuUsage();
  process.send!({
    writes: Object.fromEntries(writes),
    cpuUs: used.user + used.system,
    gcPausesMs,
  } satisfies WritesMessage);
  writes.clear();
  gcPausesMs = [];
});
// The parent going away (a crash, Ctrl-C) ends the server too.
process.on('disconnect', () => process.exit(0));
