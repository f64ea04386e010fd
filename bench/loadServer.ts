// The load server of `npm run bench -- client`, run in its own process (child_process.fork), so the
// client's timings are not taken on a loop or in a process that also writes the tokens.
// It streams OpenAI-style SSE on a schedule the request names and records when each request arrived
// and when it wrote each token: the server-side truth the client's TTFT and ITLs are compared with.
// It speaks just enough HTTP/1.1 over plain sockets (a POST with a content-length, kept alive; a
// chunked response), not node:http: a request's arrival is stamped in the read that brought its
// first bytes, and the server allocates little, so its own collector seldom holds up an arrival.
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { PerformanceObserver } from 'node:perf_hooks';
import { performanceToMonotonic } from './monotonic';

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

const HEAD = Buffer.from(
  'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n' +
    'connection: keep-alive\r\nkeep-alive: timeout=60\r\n\r\n',
);
const TOKEN = 'data: {"choices":[{"index":0,"delta":{"content":" tok"}}]}\n\n';
/** TOKEN as one HTTP/1.1 chunk: one write call, made at once, right after the truth is stamped. */
const TOKEN_CHUNK = Buffer.from(`${Buffer.byteLength(TOKEN).toString(16)}\r\n${TOKEN}\r\n`);
/** The usage trailer and [DONE] as the last data chunk, then the chunked body's end. */
function trailer(tokens: number): string {
  const text = `data: {"choices":[],"usage":{"completion_tokens":${tokens}}}\n\ndata: [DONE]\n\n`;
  return `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n0\r\n\r\n`;
}

/** performance.now() + this → CLOCK_MONOTONIC: a double, no BigInt per stamp. */
const toMonotonic = performanceToMonotonic();
const now = () => performance.now() + toMonotonic;

const writes = new Map<string, number[]>();
let cpu = process.cpuUsage();
let gcPausesMs: number[] = [];
new PerformanceObserver((list) => gcPausesMs.push(...list.getEntries().map((e) => e.duration))).observe({
  entryTypes: ['gc'],
});

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One connection: requests one after another (the client never pipelines). A request's arrival is
 * the read that brought its first bytes; the head ends at a blank line, the body is content-length
 * bytes of JSON whose `model` is `ttftMs,itlMs,tokens` and whose first message is the tag the writes
 * are filed under.
 */
function serve(socket: Socket): void {
  socket.setNoDelay(true);
  let pending: Buffer | undefined;
  let arrived = 0;
  let lastReadAt = 0;
  let streaming = false;
  const next = () => {
    if (streaming || !pending) return;
    const headEnd = pending.indexOf(HEAD_END);
    if (headEnd === -1) return;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(pending.toString('latin1', 0, headEnd));
    const bodyStart = headEnd + HEAD_END.length;
    const bodyEnd = bodyStart + Number(length?.[1] ?? 0);
    if (pending.length < bodyEnd) return;
    const request = JSON.parse(pending.toString('utf8', bodyStart, bodyEnd)) as Request;
    pending = pending.length > bodyEnd ? pending.subarray(bodyEnd) : undefined;
    // A next request's bytes that came with this one's (the bench's client never sends them) arrived in the last read.
    const requestArrived = arrived;
    arrived = lastReadAt;
    streaming = true;
    stream(socket, requestArrived, request, () => {
      streaming = false;
      next();
    });
  };
  socket.on('data', (bytes: Buffer) => {
    lastReadAt = now();
    if (!pending) arrived = lastReadAt;
    pending = pending ? Buffer.concat([pending, bytes]) : bytes;
    next();
  });
  socket.on('error', () => socket.destroy());
}

interface Request {
  model: string;
  messages: Array<{ content: string }>;
}

/** Writes the request's tokens on its schedule, stamping each write, then the trailer; `done` before the trailer. */
function stream(socket: Socket, arrived: number, request: Request, done: () => void): void {
  const [ttft = 0, itl = 0, tokens = 0] = request.model.split(',').map(Number);
  const times = [arrived];
  writes.set(request.messages[0]!.content, times);
  socket.write(HEAD);
  let k = 0;
  const tick = () => {
    if (socket.destroyed) return;
    if (k === tokens) {
      done();
      socket.write(trailer(tokens));
      return;
    }
    times.push(now());
    socket.write(TOKEN_CHUNK);
    k++;
    setTimeout(tick, Math.max(0, arrived + ttft + k * itl - now()));
  };
  setTimeout(tick, Math.max(0, arrived + ttft - now()));
}

const server = createServer({ noDelay: true }, serve);
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
