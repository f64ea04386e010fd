import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface ScriptedServer {
  url: string;
  seen: SeenRequest[];
  /** Highest number of requests open at the same time. */
  maxOpen: number;
  /** TCP connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

/** A local HTTP server on 127.0.0.1 (ephemeral port) whose answers a test scripts. */
export async function scriptedServer(
  script: (req: SeenRequest, res: ServerResponse) => void | Promise<void>,
): Promise<ScriptedServer> {
  let open = 0;
  const state: ScriptedServer = {
    url: '',
    seen: [],
    maxOpen: 0,
    connections: 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      state.seen.push(seen);
      open++;
      state.maxOpen = Math.max(state.maxOpen, open);
      res.on('close', () => open--);
      void Promise.resolve(script(seen, res)).catch(() => res.destroy());
    });
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends 200 with the content type, then each text after its pause, then ends the response. */
export async function writeSlowly(
  res: ServerResponse,
  parts: Array<[delayMs: number, text: string]>,
  contentType = 'text/event-stream',
): Promise<void> {
  res.writeHead(200, { 'content-type': contentType });
  res.flushHeaders();
  for (const [delay, text] of parts) {
    if (delay > 0) await sleep(delay);
    if (res.destroyed) return;
    res.write(text);
  }
  res.end();
}

/** `data: <json>\n\n` for each object: an OpenAI-style chunk sequence. */
export const sse = (...objects: unknown[]) =>
  objects.map((o) => `data: ${typeof o === 'string' ? o : JSON.stringify(o)}\n\n`).join('');

export const chatChunk = (content: string | null, extra: Record<string, unknown> = {}) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: null }],
  ...extra,
});

/**
 * A clock for MeasureOptions.now that returns the scripted times in order, one per reading, and lets
 * a server script wait until the client has taken a reading: written one piece per client read, a
 * stream's timestamps are exactly the script's, whatever the machine's load.
 */
export function steppedClock(times: readonly number[]) {
  let readings = 0;
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  return {
    now(): number {
      const t = times[readings++] ?? Number.NaN;
      for (const w of waiting.filter((w) => readings >= w.n)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
      return t;
    },
    /** Resolves once the client has read the clock `n` times. */
    readings(n: number): Promise<void> {
      return readings >= n ? Promise.resolve() : new Promise((resolve) => waiting.push({ n, resolve }));
    },
    get taken(): number {
      return readings;
    },
  };
}

/** Writes each piece once the clock has been read once more (the client read the previous one), then ends. */
export async function writeOnReads(
  res: ServerResponse,
  clock: ReturnType<typeof steppedClock>,
  pieces: readonly string[],
): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.flushHeaders();
  // The client read the clock once when it sent the request.
  for (const [i, piece] of pieces.entries()) {
    if (res.destroyed) return;
    res.write(piece);
    await clock.readings(i + 2);
  }
  res.end();
}
