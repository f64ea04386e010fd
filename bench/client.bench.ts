// The streaming client's own timing error, and the most concurrent streams it holds on this machine.
// A server in a worker thread (its own event loop, like a real server) writes SSE tokens on a known
// schedule and records when it wrote each one; the client's TTFT and ITLs are compared with that.
import { cpus, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { measureRequest } from '../src/core/bench/client';
import type { RequestRecord } from '../src/core/bench/result';
import { buildStreamRequest } from '../src/core/bench/runner';
import { distribution } from '../src/core/bench/stats';

/**
 * Plain JS so the worker needs no TypeScript loader. The request's `model` carries the schedule.
 * Per request it records [arrival, write of token 0, write of token 1, …] on the epoch clock.
 */
const SERVER = `
const { parentPort } = require('node:worker_threads');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const epoch = () => performance.timeOrigin + performance.now();
const writes = new Map();
const server = http.createServer((req, res) => {
  const arrived = epoch();
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    const request = JSON.parse(body);
    const [ttft, itl, tokens] = request.model.split(',').map(Number);
    const times = [arrived];
    writes.set(request.messages[0].content, times);
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.flushHeaders();
    const start = performance.now();
    let k = 0;
    const tick = () => {
      if (k === tokens) return res.end('data: {"choices":[],"usage":{"completion_tokens":' + tokens + '}}\\n\\ndata: [DONE]\\n\\n');
      times.push(epoch());
      res.write('data: {"choices":[{"index":0,"delta":{"content":" tok"}}]}\\n\\n');
      k++;
      setTimeout(tick, Math.max(0, start + ttft + k * itl - performance.now()));
    };
    setTimeout(tick, ttft);
  });
});
server.keepAliveTimeout = 30000;
server.listen(0, '127.0.0.1', () => parentPort.postMessage({ port: server.address().port }));
parentPort.on('message', () => {
  parentPort.postMessage(Object.fromEntries(writes));
  writes.clear();
});
`;

interface Round {
  errors: number;
  /** |client − truth| in ms, one per request (TTFT) and one per token gap (ITL). */
  ttftErrors: number[];
  itlErrors: number[];
  seconds: number;
}

export async function run(): Promise<void> {
  const worker = new Worker(SERVER, { eval: true });
  const { port } = await new Promise<{ port: number }>((resolve) => worker.once('message', resolve));
  const collect = () =>
    new Promise<Record<string, number[]>>((resolve) => {
      worker.once('message', resolve);
      worker.postMessage('collect');
    });
  let round = 0;

  /**
   * `streams` requests started `staggerMs` apart, each `tokens` tokens: the first ttftMs after the
   * request arrives, then one every itlMs.
   */
  async function measure(
    streams: number,
    ttftMs: number,
    itlMs: number,
    tokens: number,
    staggerMs = 0,
  ): Promise<Round> {
    const tag = `r${round++}`;
    const endpoint = {
      name: 'bench',
      kind: 'openai-chat' as const,
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: `${ttftMs},${itlMs},${tokens}`,
    };
    const started = performance.now();
    const records = await Promise.all(
      Array.from({ length: streams }, async (_, i) => {
        if (staggerMs > 0) await new Promise((resolve) => setTimeout(resolve, i * staggerMs));
        return measureRequest(
          buildStreamRequest(endpoint, undefined, [{ role: 'user', content: `${tag}-${i}` }], tokens),
          { timeoutMs: 30_000, countTokens: () => 0 },
        );
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const writes = await collect();
    const ttftErrors: number[] = [];
    const itlErrors: number[] = [];
    records.forEach((r, i) => compare(r, writes[`${tag}-${i}`], ttftErrors, itlErrors));
    const errors = records.filter((r) => !r.ok || r.itlMs.length !== tokens - 1).length;
    return { errors, ttftErrors, itlErrors, seconds };
  }

  // Client and server share this machine's CPUs with whatever else runs: say how busy it was.
  console.log(`Machine: ${cpus().length} CPUs, load average ${loadavg()[0]!.toFixed(2)} at start.`);
  try {
    await measure(8, 5, 2, 5); // warm the JIT and the connection pool
    const single: Round[] = [];
    for (let i = 0; i < 40; i++) single.push(await measure(1, 20, 5, 20));
    const ttft = distribution(single.flatMap((r) => r.ttftErrors));
    const itl = distribution(single.flatMap((r) => r.itlErrors));
    console.log(
      'Timing error |client-measured − server-side truth|, single streams (40 requests × 20 tokens, TTFT 20 ms, ITL 5 ms):',
    );
    console.log(`  TTFT error: median ${f(ttft?.p50)} ms, p99 ${f(ttft?.p99)} ms   (target: median ≤ 1 ms)`);
    console.log(`  ITL error:  median ${f(itl?.p50)} ms, p99 ${f(itl?.p99)} ms`);

    // Streams start 1 ms apart and last longer than the ramp, so all of them are open at once.
    console.log('\nConcurrent streams (started 1 ms apart, each TTFT 50 ms then 50 tokens every 50 ms);');
    console.log('held = no errors and median timing error ≤ 5 ms:');
    console.log('  streams  errors  TTFT err p50/p99 ms  ITL err p50/p99 ms  wall s  held');
    let held = 0;
    const deadline = performance.now() + 35_000;
    for (const streams of [100, 250, 500, 750, 1000, 1500, 2000]) {
      if (performance.now() > deadline) break;
      const r = await measure(streams, 50, 50, 50, 1);
      const ttftError = distribution(r.ttftErrors);
      const itlError = distribution(r.itlErrors);
      const ok = r.errors === 0 && (ttftError?.p50 ?? Infinity) <= 5 && (itlError?.p50 ?? Infinity) <= 5;
      if (ok) held = streams;
      console.log(
        `  ${String(streams).padStart(7)}  ${String(r.errors).padStart(6)}  ${`${f(ttftError?.p50)}/${f(ttftError?.p99)}`.padStart(19)}  ${`${f(itlError?.p50)}/${f(itlError?.p99)}`.padStart(18)}  ${r.seconds.toFixed(1).padStart(6)}  ${ok ? 'yes' : 'no'}`,
      );
      if (!ok) break;
    }
    console.log(
      `  largest concurrency held: ${held} streams (target ≥ 500); load average ${loadavg()[0]!.toFixed(2)} at end.`,
    );
  } finally {
    await worker.terminate();
  }
}

/**
 * Client-measured TTFT and ITLs against the server's truth (both on the epoch clock): true TTFT is
 * request arrival → first write, so the error includes the client's delays in sending and reading.
 */
function compare(r: RequestRecord, server: number[] | undefined, ttftErrors: number[], itlErrors: number[]): void {
  if (!r.ok || !server || r.ttftMs === undefined) return;
  const [arrived, ...writes] = server;
  ttftErrors.push(Math.abs(r.ttftMs - (writes[0]! - arrived!)));
  r.itlMs.forEach((itl, k) => itlErrors.push(Math.abs(itl - (writes[k + 1]! - writes[k]!))));
}

function f(v: number | undefined): string {
  return v === undefined ? '–' : v.toFixed(2);
}
