import { connect as netConnect, isIP, type OnReadOpts, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import { bodyReader, HeadReader, type BodyReader, type ResponseHead } from './http1';
import {
  boundedText,
  decoderFor,
  DRAIN_LIMIT_MS,
  type Arrival,
  type ArrivalSink,
  type SendInit,
  type StreamBody,
  type StreamResponse,
  type Transport,
} from './transport';

// The benchmark client's HTTP/1.1 transport, over net/tls sockets read with `onread`: each socket
// read lands in one callback that reads the clock, copies the bytes and queues them — no stream
// machinery, no parser. The bytes are parsed (HTTP framing, then the client's SSE/NDJSON) once per
// loop turn, after every socket that was ready has been read and stamped: with a thousand open
// streams, a burst of first tokens is stamped at the reads. Through node:http each socket's read ran
// node's stream machinery and HTTP parser before the next socket's read could be stamped, and the
// client cost about 15 % more CPU per chunk (same-load A/B in docs/benchmark.md).

/** One buffer for every socket's reads on this thread: each read is copied out in its callback. */
let readBuffer: Buffer | undefined;
const READ_BUFFER_BYTES = 64 * 1024;

/** What a body's consumer (read or text) is told, in order. */
interface BodyEvents {
  arrivals(list: Arrival[]): void;
  end(at: number): void;
  fail(error: Error): void;
}

type Queued = { read: Arrival } | { eof: true } | { error: Error };

/** Exchanges with queued reads, parsed together once this loop turn's reads are all stamped. */
const dirty = new Set<Exchange>();
let flushScheduled: NodeJS.Immediate | undefined;

function schedule(exchange: Exchange): void {
  dirty.add(exchange);
  flushScheduled ??= setImmediate(flush);
}

function flush(): void {
  flushScheduled = undefined;
  const exchanges = [...dirty];
  dirty.clear();
  for (const exchange of exchanges) exchange.pump();
}

/** Idle kept-alive connections per origin, most recently used last (reused first, as node's agent does). */
const idle = new Map<string, Connection[]>();

class Connection {
  exchange: Exchange | undefined;

  readonly socket: Socket;

  constructor(
    url: URL,
    private readonly origin: string,
  ) {
    const socket = (this.socket = openSocket(url, (bytes) => this.onRead(bytes)));
    socket.on('error', (error) => this.exchange?.queue({ error }));
    socket.on('end', () => this.exchange?.queue({ eof: true }));
    socket.on('close', () => {
      this.exchange?.queue({ error: closedError() });
      this.leavePool();
    });
    socket.on('timeout', () => socket.destroy());
  }

  /** The socket's read callback: stamp, copy, queue. */
  onRead(bytes: Uint8Array): void {
    const exchange = this.exchange;
    // Bytes while idle: the server is not speaking HTTP/1.1 request-response; the connection is unusable.
    if (!exchange) return void this.socket.destroy();
    exchange.socketRead(bytes);
  }

  /** Back to the pool once its response has ended, when the server keeps it open and said nothing odd. */
  release(head: ResponseHead): void {
    this.exchange = undefined;
    // Node's agent drops a connection the server will close within a second (its keep-alive hint).
    const hintMs = head.keepAliveSeconds === undefined ? undefined : head.keepAliveSeconds * 1000 - 1000;
    if (this.socket.destroyed || (hintMs !== undefined && hintMs <= 0)) return void this.socket.destroy();
    this.socket.setTimeout(hintMs ?? 0);
    // An idle connection never keeps the process alive.
    this.socket.unref();
    const list = idle.get(this.origin) ?? [];
    list.push(this);
    idle.set(this.origin, list);
  }

  take(exchange: Exchange): void {
    this.leavePool();
    this.socket.ref();
    this.socket.setTimeout(0);
    this.exchange = exchange;
  }

  private leavePool(): void {
    const list = idle.get(this.origin);
    const at = list?.indexOf(this) ?? -1;
    if (at !== -1) list!.splice(at, 1);
  }
}

function closedError(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/** One request and its response on a connection. */
class Exchange {
  /** The clock each read is stamped with: the request's, then the body reader's once it reads. */
  clock: () => number;
  private head: ResponseHead | undefined;
  private readonly heads = new HeadReader();
  private body: BodyReader | undefined;
  private readonly queued: Queued[] = [];
  /** Parsed body events waiting for a consumer. */
  private readonly events: Array<{ arrivals: Arrival[] } | { end: number } | { fail: Error }> = [];
  private consumer: BodyEvents | undefined;
  private over = false;
  written = false;

  constructor(
    readonly connection: Connection,
    now: () => number,
    private readonly onHead: (head: ResponseHead) => void,
    private readonly onFailure: (error: Error) => void,
    private readonly finished: () => void,
  ) {
    this.clock = now;
  }

  socketRead(bytes: Uint8Array): void {
    if (this.over) return;
    if (this.head) return this.queue({ read: { at: this.clock(), bytes: copy(bytes) } });
    // The head is parsed at once (it comes long before the tokens); body bytes that came with it are
    // stamped after that parse.
    let parsed: ReturnType<HeadReader['push']>;
    try {
      parsed = this.heads.push(copy(bytes));
    } catch (error) {
      return this.fail(error as Error);
    }
    if (!parsed) return;
    this.head = parsed.head;
    this.body = bodyReader(parsed.head.framing);
    this.onHead(parsed.head);
    if (parsed.rest.length > 0) this.queue({ read: { at: this.clock(), bytes: parsed.rest } });
    else if (this.body.done) this.queue({ read: { at: this.clock(), bytes: parsed.rest } });
  }

  queue(item: Queued): void {
    if (this.over) return;
    if (!this.head && !('read' in item)) return this.fail('error' in item ? item.error : closedError());
    this.queued.push(item);
    schedule(this);
  }

  attach(consumer: BodyEvents): void {
    this.consumer = consumer;
    schedule(this);
  }

  /** Parses the queued reads, then hands what they held to the consumer, if one is reading. */
  pump(): void {
    for (const item of this.queued.splice(0)) {
      if (this.over) break;
      if ('read' in item) this.parse(item.read);
      else if ('eof' in item && this.body!.closeEnds()) this.end(this.clock());
      else this.breakOff('error' in item ? item.error : new Error('the connection closed before the body ended'));
    }
    if (!this.consumer) return;
    for (const event of this.events.splice(0)) {
      if ('arrivals' in event) this.consumer.arrivals(event.arrivals);
      else if ('end' in event) this.consumer.end(event.end);
      else this.consumer.fail(event.fail);
    }
  }

  private parse({ at, bytes }: Arrival): void {
    let framed;
    try {
      framed = this.body!.push(bytes);
    } catch (error) {
      return this.breakOff(error as Error);
    }
    if (framed.pieces.length > 0) this.events.push({ arrivals: framed.pieces.map((piece) => ({ at, bytes: piece })) });
    if (!framed.done) return;
    // Bytes after the body's end, before the next request: the connection cannot be trusted again.
    if (framed.rest) this.connection.socket.destroy();
    this.end(at);
  }

  private end(at: number): void {
    this.over = true;
    this.events.push({ end: at });
    this.finished();
    if (this.head!.keepAlive && this.written && !this.connection.socket.destroyed) this.connection.release(this.head!);
    else this.connection.socket.destroy();
  }

  private breakOff(error: Error): void {
    this.over = true;
    this.events.push({ fail: error });
    this.finished();
    this.connection.socket.destroy();
  }

  /** A failure before the head: the request itself fails. */
  private fail(error: Error | string): void {
    this.over = true;
    this.finished();
    this.connection.socket.destroy();
    this.onFailure(typeof error === 'string' ? new Error(error) : error);
  }

  /** Stops reading: the connection goes (the rest of the body is not wanted). */
  abandon(): void {
    if (this.over) return;
    this.breakOff(new Error('the body was abandoned'));
  }

  get ended(): boolean {
    return this.over;
  }
}

/**
 * A read's bytes out of the shared read buffer, into a slice of node's Buffer pool (one 8 KiB
 * allocation for many small reads): a typed array of its own mallocs, tracks and frees a backing
 * store per read (2.2 µs against 0.4 µs for a token chunk), and that external memory hastens
 * scavenges.
 */
function copy(bytes: Uint8Array): Uint8Array {
  const out = Buffer.allocUnsafe(bytes.length);
  out.set(bytes);
  return out;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** The request's bytes: what node:http would send for this POST through a keep-alive agent. */
function requestBytes(url: URL, init: SendInit): Buffer {
  const lines = [`POST ${url.pathname}${url.search} HTTP/1.1`];
  const names = new Set<string>();
  for (const [name, value] of Object.entries(init.headers)) {
    // Never the value in the message: it may be the key.
    if (!HEADER_NAME.test(name) || !HEADER_VALUE.test(value))
      throw Object.assign(new TypeError(`Invalid character in header "${name.slice(0, 64)}"`), {
        code: 'ERR_INVALID_CHAR',
      });
    names.add(name.toLowerCase());
    lines.push(`${name}: ${value}`);
  }
  if (!names.has('host')) lines.splice(1, 0, `Host: ${url.host}`);
  lines.push(`Content-Length: ${Buffer.byteLength(init.body)}`, 'Connection: keep-alive', '', '');
  return Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), Buffer.from(init.body, 'utf8')]);
}

function openSocket(url: URL, onRead: (bytes: Uint8Array) => void): Socket {
  readBuffer ??= Buffer.allocUnsafe(READ_BUFFER_BYTES);
  const onread: OnReadOpts = {
    buffer: readBuffer,
    callback: (n, buffer) => {
      onRead((buffer as Buffer).subarray(0, n));
      return true;
    },
  };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const https = url.protocol === 'https:';
  const port = Number(url.port) || (https ? 443 : 80);
  const socket = https
    ? // node's types omit tls.connect's documented `onread` (passed on to its socket).
      tlsConnect({
        host,
        port,
        onread,
        ALPNProtocols: ['http/1.1'],
        ...(isIP(host) ? {} : { servername: host }),
        ...tlsTrust,
      } as ConnectionOptions)
    : netConnect({ host, port, onread });
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 1000);
  return socket;
}

/** Extra certificate authorities (tests serve TLS with their own); empty in the product. */
let tlsTrust: { ca?: string } = {};

/** For tests: trust only this PEM certificate (undefined: the system's again). */
export function trustCertificateForTests(ca: string | undefined): void {
  tlsTrust = ca ? { ca } : {};
}

/**
 * POSTs over a kept-alive HTTP/1.1 connection of its own pool (every idle connection is kept, so a
 * level's warm-up connections serve its measured round), resolving at the response head. Never
 * follows redirects. On a reused connection `sentAt` is read just before the request's write.
 */
export const socketTransport: Transport = (url, init) =>
  new Promise<StreamResponse>((resolve, reject) => {
    const target = new URL(url);
    if (target.protocol !== 'http:' && target.protocol !== 'https:')
      throw new TypeError(`Protocol "${target.protocol}" not supported`);
    const bytes = requestBytes(target, init);
    if (init.signal.aborted) throw abortError();
    const origin = `${target.protocol}//${target.host}`;
    const reused = idle.get(origin)?.pop();
    const connection = reused ?? new Connection(target, origin);
    const onAbort = () => connection.socket.destroy(abortError());
    init.signal.addEventListener('abort', onAbort, { once: true });
    let sentAt: number | undefined;
    const exchange = new Exchange(
      connection,
      init.now,
      (head) => resolve(response(head, exchange, sentAt)),
      reject,
      () => init.signal.removeEventListener('abort', onAbort),
    );
    connection.take(exchange);
    if (reused) sentAt = init.now();
    connection.socket.write(bytes, (error) => {
      if (!error) exchange.written = true;
    });
  });

function abortError(): Error {
  return Object.assign(new Error('This operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

function response(head: ResponseHead, exchange: Exchange, sentAt: number | undefined): StreamResponse {
  const encoding = (head.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  return {
    status: head.status,
    header: (name) => head.headers.get(name.toLowerCase()) ?? null,
    body: body(exchange, encoding),
    ...(sentAt !== undefined ? { sentAt } : {}),
  };
}

/** Delivers a body's events through a decompressor when the server compressed it anyway. */
function decoding(encoding: string, consumer: BodyEvents): BodyEvents {
  const decoder = decoderFor(encoding);
  if (!decoder) return consumer;
  let lastAt = 0;
  let endAt: number | undefined;
  let failed = false;
  decoder.on('data', (bytes: Uint8Array) => consumer.arrivals([{ at: lastAt, bytes }]));
  decoder.on('end', () => consumer.end(endAt ?? lastAt));
  decoder.on('error', (error) => {
    failed = true;
    consumer.fail(error);
  });
  return {
    arrivals(list) {
      for (const { at, bytes } of list) {
        lastAt = at;
        if (!failed) decoder.write(bytes);
      }
    },
    end(at) {
      endAt = at;
      if (!failed) decoder.end();
    },
    fail(error) {
      if (failed) return;
      failed = true;
      decoder.destroy();
      consumer.fail(error);
    },
  };
}

function body(exchange: Exchange, encoding: string): StreamBody {
  return {
    read: (now, sink: ArrivalSink) =>
      new Promise<number | undefined>((resolve, reject) => {
        exchange.clock = now;
        let stopped = false;
        let drainLimit: NodeJS.Timeout | undefined;
        const stop = () => {
          stopped = true;
          // What still comes is only drained: its reads are not timed.
          exchange.clock = () => Number.NaN;
          // The rest is read so the connection can be reused, for a while; then it is dropped.
          if (exchange.ended) return resolve(undefined);
          drainLimit = setTimeout(() => exchange.abandon(), DRAIN_LIMIT_MS);
        };
        exchange.attach(
          decoding(encoding, {
            arrivals(list) {
              if (stopped) return;
              try {
                if (sink(list)) stop();
              } catch (error) {
                stopped = true;
                exchange.abandon();
                reject(error as Error);
              }
            },
            end(at) {
              clearTimeout(drainLimit);
              if (stopped) resolve(undefined);
              else resolve(at);
            },
            fail(error) {
              clearTimeout(drainLimit);
              // The server dropped the connection after a complete answer: nothing to report.
              if (stopped) resolve(undefined);
              else reject(error);
            },
          }),
        );
      }),
    text: (limit) =>
      boundedText(
        {
          [Symbol.asyncIterator]: () => eventIterator(exchange, encoding),
        },
        limit,
        () => exchange.abandon(),
      ),
  };
}

/** The body's decoded bytes as an async iterator (for error pages, read as text). */
function eventIterator(exchange: Exchange, encoding: string): AsyncIterator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let done = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  exchange.attach(
    decoding(encoding, {
      arrivals(list) {
        for (const { bytes } of list) ready.push(bytes);
        notify();
      },
      end() {
        done = true;
        notify();
      },
      fail() {
        done = true;
        notify();
      },
    }),
  );
  return {
    async next() {
      while (ready.length === 0 && !done) await new Promise<void>((resolve) => (wake = resolve));
      const value = ready.shift();
      return value === undefined ? { done: true, value: undefined } : { done: false, value };
    },
  };
}
