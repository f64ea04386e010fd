// Pieces the Artillery suites share: the CLI and Artillery as child processes, and a recording
// proxy in front of an endpoint so a test can compare what two clients sent.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '../..');
const CLI = resolve(ROOT, 'dist/cli.js');
const ARTILLERY = resolve(ROOT, 'tools/artillery/node_modules/artillery/bin/run');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export async function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  const started = performance.now();
  const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr, ms: performance.now() - started };
}

export const cli = (args: string[], cwd: string) => run(process.execPath, [CLI, ...args], cwd);

/** `artillery run`, without its telemetry (CI reaches only the registry). */
export const artillery = (args: string[], cwd: string) =>
  run(process.execPath, [ARTILLERY, ...args], cwd, { ARTILLERY_DISABLE_TELEMETRY: 'true' });

/** One proxied POST: its first non-empty content delta and its end (ms from forwarding it), its content frames. */
export interface Seen {
  startMs: number;
  ttftMs?: number;
  contentFrames?: number;
  e2eMs?: number;
}

const CONTENT = /"(?:content|text)":"[^"]/;

/** Forwards to `target` (http://host:port) and keeps every request body, in arrival order. */
export async function recordingProxy(target: string): Promise<{
  url: string;
  bodies: string[];
  /** What the proxy itself saw of each POST, in arrival order (parallel to `bodies`). */
  seen: Seen[];
  close(): Promise<void>;
}> {
  const upstream = new URL(target);
  const bodies: string[] = [];
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const startMs = performance.now();
      const record: Seen = { startMs };
      if (req.method === 'POST') {
        bodies.push(body.toString('utf8'));
        seen.push(record);
      }
      const forward = request(
        { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers },
        (reply) => {
          res.writeHead(reply.statusCode ?? 502, reply.headers);
          let pending = '';
          reply.on('data', (c: Buffer) => {
            // Non-empty content deltas, as the client defines them, seen from the engine's side: the first
            // one is TTFT; each whole SSE frame with content is one token.
            const frames = (pending + c.toString('utf8')).split(/\r?\n\r?\n/);
            pending = frames.pop()!;
            for (const frame of frames) {
              if (!CONTENT.test(frame)) continue;
              record.ttftMs ??= performance.now() - startMs;
              record.contentFrames = (record.contentFrames ?? 0) + 1;
            }
          });
          reply.on('end', () => (record.e2eMs = performance.now() - startMs));
          reply.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    bodies,
    seen,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

/** A request body with its cold nonce (`[run+counter] ` at the start of the first message) blanked. */
export function withoutNonce(body: string): string {
  return body.replace(/("content":")\[[0-9a-z]+\] /, '$1[NONCE] ');
}
