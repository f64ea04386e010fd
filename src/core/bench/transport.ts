import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/** The part of a response the client reads. */
export interface StreamResponse {
  status: number;
  header(name: string): string | null;
  /** Body chunks as they arrive; ends with the body, throws if the connection breaks. */
  body: AsyncIterable<Uint8Array>;
}

export interface SendInit {
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
}

/** Sends a POST and resolves at the response headers. Never follows redirects (keys must not travel). */
export type Transport = (url: string, init: SendInit) => Promise<StreamResponse>;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

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
      body: (response.body as AsyncIterable<Uint8Array> | null) ?? empty,
    };
  };
}

// Keep-alive pools without a socket limit: a concurrency level of 500 means 500 open streams.
// Idle pooled sockets are unref'd by node, so they never keep the process alive.
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: Infinity });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: Infinity });

/**
 * node:http(s) transport, the default. It costs the event loop about half what fetch does per
 * request and per chunk (no WHATWG streams), which is the client's own timing error under load.
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
    // Kept for the request's life: an abort after the headers must not become an uncaught error.
    req.on('error', reject);
    req.once('response', (res: IncomingMessage) => {
      resolve({
        status: res.statusCode ?? 0,
        header: (name) => {
          const value = res.headers[name.toLowerCase()];
          return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
        },
        body: decoded(res),
      });
    });
    req.end(init.body);
  });

const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/**
 * We ask for `identity`, but a server may compress anyway (fetch would decode it silently). A body
 * that is not what its header claims fails with a zlib `Z_…` error the client reports as bad-stream.
 */
function decoded(res: IncomingMessage): AsyncIterable<Uint8Array> {
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
