import type { Transform } from 'node:stream';
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
export const DRAIN_LIMIT_MS = 2000;

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

export async function boundedText(
  body: AsyncIterable<Uint8Array>,
  limit: number,
  release: () => void,
): Promise<string> {
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
 * We ask for `identity`, but a server may compress anyway (fetch would decode it silently): the
 * decompressor for a content-encoding, or undefined for identity and codings we do not know. A body
 * that is not what its header claims fails with a zlib `Z_…` error the client reports as bad-stream.
 */
export function decoderFor(encoding: string): Transform | undefined {
  return DECODERS[encoding.trim().toLowerCase()]?.();
}
