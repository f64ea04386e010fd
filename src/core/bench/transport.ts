import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** One read of a response body and the clock reading taken in that read's own callback. */
export interface Arrival {
  at: number;
  bytes: Uint8Array;
}

/**
 * Receives a body's reads, oldest first, possibly several at once; returns true to stop reading (the
 * answer is complete). A throw stops reading too and rejects `read`.
 */
export type ArrivalSink = (arrivals: readonly Arrival[]) => boolean;

export interface StreamBody {
  /**
   * Reads the body, stamping each read with `now()`. Resolves with the clock at the body's end, or
   * undefined when the sink stopped it, once the rest is read (for at most DRAIN_LIMIT_MS, so
   * keep-alive can reuse the connection): the request holds its place in the concurrency until then
   * (a worker that started its next request meanwhile would put more requests on the server than
   * the concurrency level says; 12 at concurrency 2 were seen). Rejects when the connection breaks.
   */
  read(now: () => number, sink: ArrivalSink): Promise<number | undefined>;
  /** At most `limit` characters of the body (an error page can be huge or endless), then lets go of it. */
  text(limit: number): Promise<string>;
}

/** The part of a response the client reads. */
export interface StreamResponse {
  status: number;
  header(name: string): string | null;
  body: StreamBody;
  /**
   * Clock reading just before the request's bytes were written to an already open connection: the
   * client's own work before that (building the request, taking a pooled socket) is not the
   * endpoint's latency. Absent when the request had to open a connection (its TCP/TLS set-up is part
   * of what the user waits for, so the clock keeps the caller's reading) or the transport cannot tell
   * (fetch).
   */
  sentAt?: number;
}

export interface SendInit {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  /** The clock `sentAt` and the socket reads are stamped with. */
  now: () => number;
}

/** Sends a POST and resolves at the response headers. Never follows redirects (keys must not travel). */
export type Transport = (url: string, init: SendInit) => Promise<StreamResponse>;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** How long the rest of a finished stream may take to arrive before its connection is dropped. */
const DRAIN_LIMIT_MS = 2000;

/** Adapts a fetch (the global one, or a scripted one in tests) to the transport the client uses. */
export function fetchTransport(fetchFn: FetchLike): Transport {
  return async (url, init) => {
    const response = await fetchFn(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: init.signal,
      redirect: 'manual',
    });
    const empty: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: async function* () {} };
    return {
      // A browser-style opaque redirect hides its status; it is still a redirect.
      status: response.type === 'opaqueredirect' ? 302 : response.status,
      header: (name) => response.headers.get(name),
      body: iteratedBody((response.body as AsyncIterable<Uint8Array> | null) ?? empty),
    };
  };
}

/**
 * A body read by awaiting each chunk (fetch's WHATWG stream): the clock is read when the await
 * resumes, and each read goes to the sink at once.
 */
function iteratedBody(body: AsyncIterable<Uint8Array>): StreamBody {
  const chunks = body[Symbol.asyncIterator]();
  return {
    async read(now, sink) {
      try {
        for (;;) {
          const next = await chunks.next();
          const at = now();
          if (next.done) return at;
          if (sink([{ at, bytes: next.value }])) {
            await drainIterator(chunks);
            return undefined;
          }
        }
      } catch (error) {
        // Closing the body on a problem gives up the connection; the stream cannot be trusted.
        void chunks.return?.().catch(() => undefined);
        throw error;
      }
    },
    async text(limit) {
      return boundedText(
        { [Symbol.asyncIterator]: () => chunks },
        limit,
        () => void chunks.return?.().catch(() => undefined),
      );
    },
  };
}

async function drainIterator(chunks: AsyncIterator<Uint8Array>): Promise<void> {
  const limit = setTimeout(() => void chunks.return?.().catch(() => undefined), DRAIN_LIMIT_MS);
  try {
    while (!(await chunks.next()).done);
  } catch {
    // The server dropped the connection after a complete answer: nothing to report.
  } finally {
    clearTimeout(limit);
  }
}

// Keep-alive pools without a socket limit: a concurrency level of 500 means 500 open streams. Every
// idle socket is kept (node's default keeps 256), so the warm-up round's connections serve the
// measured round: above 256 streams a measured request would otherwise pay a new connection.
// Idle pooled sockets are unref'd by node, so they never keep the process alive.
const agentOptions = { keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity };
const httpAgent = new HttpAgent(agentOptions);
const httpsAgent = new HttpsAgent(agentOptions);

/**
 * node:http(s) transport, the default. It costs the event loop about half what fetch does per
 * request and per chunk (no WHATWG streams), and its body is read in the socket's own callbacks.
 */
export const httpTransport: Transport = (url, init) =>
  new Promise<StreamResponse>((resolve, reject) => {
    const https = new URL(url).protocol === 'https:';
    const req = (https ? httpsRequest : httpRequest)(url, {
      method: 'POST',
      headers: { ...init.headers, 'content-length': String(Buffer.byteLength(init.body)) },
      agent: https ? httpsAgent : httpAgent,
      signal: init.signal,
    });
    let sentAt: number | undefined;
    req.once('socket', (socket: Socket) => {
      // Node writes the request right after this event, in the same call: on an open connection
      // this reading is the send.
      if (!socket.connecting) sentAt = init.now();
    });
    // Kept for the request's life: an abort after the headers must not become an uncaught error.
    req.on('error', reject);
    req.once('response', (res: IncomingMessage) => {
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
        body: streamBody(decoded(res), res.socket),
        ...(sentAt !== undefined ? { sentAt } : {}),
      });
    });
    req.end(init.body);
  });

/**
 * A body read in its `data` callbacks, each read stamped with the clock reading taken when its
 * socket read began, before node's HTTP parser ran on it (a listener ahead of node's on the socket;
 * a decompressor's output gets the latest socket read's, bytes that came before reading began get the
 * clock when it begins). The sink runs later in the same loop turn (setImmediate: after every socket
 * that was ready has been read), so with a thousand open streams no stream's timestamp waits behind
 * another stream's parsing.
 */
function streamBody(stream: Readable, socket: Socket | null): StreamBody {
  return {
    read: (now, sink) =>
      new Promise<number | undefined>((resolve, reject) => {
        let queue: Arrival[] = [];
        let scheduled: NodeJS.Immediate | undefined;
        let settled = false;
        let readAt: number | undefined;
        const stampRead = () => (readAt = now());
        const settle = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          clearImmediate(scheduled);
          socket?.off('data', stampRead);
          stream.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
          outcome();
        };
        /** Hands over what is queued; true when the reading is over (stopped or failed). */
        const deliver = (): boolean => {
          scheduled = undefined;
          if (queue.length === 0 || settled) return settled;
          const arrivals = queue;
          queue = [];
          try {
            if (!sink(arrivals)) return false;
          } catch (error) {
            settle(() => reject(error as Error));
            stream.destroy();
            return true;
          }
          settle(() => void drainStream(stream).then(() => resolve(undefined)));
          return true;
        };
        const onData = (bytes: Uint8Array) => {
          queue.push({ at: readAt ?? now(), bytes });
          scheduled ??= setImmediate(deliver);
        };
        const onEnd = () => {
          const at = now();
          if (!deliver()) settle(() => resolve(at));
        };
        const onError = (error: Error) => {
          if (!deliver()) settle(() => reject(error));
        };
        // A connection that closes without `end` or an error (a reset the parser saw as the end of a
        // chunked body) is a broken stream, not a complete one.
        const onClose = () => {
          if (!deliver()) settle(() => reject(new Error('the connection closed before the body ended')));
        };
        socket?.prependListener('data', stampRead);
        stream.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
      }),
    text: (limit) => boundedText(stream, limit, () => stream.destroy()),
  };
}

/**
 * Reads what is left of a finished stream so keep-alive can reuse the connection; drops it after the
 * limit. Resolves when the stream has ended or closed.
 */
function drainStream(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const limit = setTimeout(() => stream.destroy(), DRAIN_LIMIT_MS);
    const done = () => {
      clearTimeout(limit);
      resolve();
    };
    // The server dropped the connection after a complete answer: nothing to report.
    stream.on('error', () => undefined);
    stream.once('close', done);
    stream.once('end', done);
    stream.resume();
  });
}

async function boundedText(body: AsyncIterable<Uint8Array>, limit: number, release: () => void): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for await (const chunk of body) {
      if (text.length >= limit) break;
      text += decoder.decode(chunk, { stream: true });
    }
  } catch {
    // A body that breaks while we read an error message: keep what arrived.
  }
  release();
  return text.slice(0, limit);
}

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * We ask for `identity`, but a server may compress anyway (fetch would decode it silently). A body
 * that is not what its header claims fails with a zlib `Z_…` error the client reports as bad-stream.
 * A compressed body's reads are stamped when the decompressor hands them over.
 */
function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? 'identity')
    .trim()
    .toLowerCase();
  const decoder = DECODERS[encoding];
  if (!decoder) return res;
  const stream = decoder();
  res.on('error', (error) => stream.destroy(error));
  // The client stopping early destroys the decoder; the response must go with it.
  stream.on('close', () => res.destroy());
  return res.pipe(stream);
}
