// The streaming client's own timing error, and the most concurrent streams it holds on this machine.
// The load server (bench/loadServer.ts) runs in its own process, writes SSE tokens on a known
// schedule and records when it wrote each one; the client's TTFT and ITLs are compared with that.
// Two ways of running the client side by side: every stream on this thread's event loop (as
// runBenchmark does below POOL_FROM_CONCURRENCY open streams), and a StreamPool of worker threads
// (what runBenchmark uses from there on).
import { fork, type ChildProcess } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { measureRequest, type MeasureOptions, type StreamRequest } from '../src/core/bench/client';
import type { RequestRecord } from '../src/core/bench/result';
import { buildStreamRequest } from '../src/core/bench/runner';
import { distribution } from '../src/core/bench/stats';
import { StreamPool } from '../src/core/bench/streamPool';
import { tsWorker } from '../test/unit/helpers/tsWorker';
import type { ListeningMessage, WritesMessage } from './loadServer';

type Measure = (request: StreamRequest, options: MeasureOptions) => Promise<RequestRecord>;

interface Round {
  errors: number;
  /** |client − truth| in ms, one per request (TTFT) and one per token gap (ITL). */
  ttftErrors: number[];
  itlErrors: number[];
  seconds: number;
  /** CPU time per token chunk, in µs: this process (client and its workers) and the load server. */
  clientCpuUs: number;
  serverCpuUs: number;
}

const LEVELS = [100, 250, 500, 750, 1000, 1500, 2000];
/** Issue #19's target at 1,000 streams: median TTFT error ≤ 1 ms and p99 ≤ 5 ms. */
const GOAL = { streams: 1000, p50: 1, p99: 5 };

function startServer(): Promise<{ child: ChildProcess; port: number }> {
  const child = fork(join(__dirname, 'loadServer.ts'), [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the load server exited with code ${code}`)));
    child.once('message', (m: ListeningMessage) => resolve({ child, port: m.port }));
  });
}

export async function run(): Promise<void> {
  const { child, port } = await startServer();
  const pool = new StreamPool(() => tsWorker(join(__dirname, '../src/core/bench/stream.worker.ts')), 2);
  const collect = () =>
    new Promise<WritesMessage>((resolve) => {
      child.once('message', resolve);
      child.send({ collect: true });
    });
  let round = 0;

  /**
   * `streams` requests started `staggerMs` apart, each `tokens` tokens: the first ttftMs after the
   * request arrives, then one every itlMs.
   */
  async function measure(
    via: Measure,
    streams: number,
    [ttftMs, itlMs, tokens]: [number, number, number],
    staggerMs = 0,
  ): Promise<Round> {
    const tag = `r${round++}`;
    const endpoint = {
      name: 'bench',
      kind: 'openai-chat' as const,
      baseUrl: `http://127.0.0.1:${port}/v1`,
      model: `${ttftMs},${itlMs},${tokens}`,
    };
    await collect(); // the server's CPU count starts here
    const cpu = process.cpuUsage();
    const started = performance.now();
    const records = await Promise.all(
      Array.from({ length: streams }, async (_, i) => {
        if (staggerMs > 0) await new Promise((resolve) => setTimeout(resolve, i * staggerMs));
        return via(buildStreamRequest(endpoint, undefined, [{ role: 'user', content: `${tag}-${i}` }], tokens), {
          timeoutMs: 60_000,
          countTokens: () => 0,
        });
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const { writes, cpuUs } = await collect();
    const ttftErrors: number[] = [];
    const itlErrors: number[] = [];
    records.forEach((r, i) => compare(r, writes[`${tag}-${i}`], ttftErrors, itlErrors));
    const chunks = streams * tokens;
    return {
      errors: records.filter((r) => !r.ok || r.itlMs.length !== tokens - 1).length,
      ttftErrors,
      itlErrors,
      seconds,
      clientCpuUs: (used.user + used.system) / chunks,
      serverCpuUs: cpuUs / chunks,
    };
  }

  const oneLoop: Measure = (request, options) => measureRequest(request, options);
  const pooled: Measure = (request, options) => pool.measure(request, options);

  // Client and server share this machine's CPUs with whatever else runs: say how busy it was.
  console.log(
    `Machine: ${cpus().length} CPUs, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} at start.`,
  );
  try {
    await measure(oneLoop, 8, [5, 2, 5]); // warm the JIT and the connection pools
    await measure(pooled, 8, [5, 2, 5]);
    const single: Round[] = [];
    for (let i = 0; i < 40; i++) single.push(await measure(oneLoop, 1, [20, 5, 20]));
    const ttft = distribution(single.flatMap((r) => r.ttftErrors));
    const itl = distribution(single.flatMap((r) => r.itlErrors));
    console.log(
      'Timing error |client-measured − server-side truth|, single streams (40 requests × 20 tokens, TTFT 20 ms, ITL 5 ms):',
    );
    console.log(`  TTFT error: median ${f(ttft?.p50)} ms, p99 ${f(ttft?.p99)} ms   (target: median ≤ 1 ms)`);
    console.log(`  ITL error:  median ${f(itl?.p50)} ms, p99 ${f(itl?.p99)} ms`);

    // Streams start 1 ms apart and last longer than the ramp, so all of them are open at once.
    console.log('\nConcurrent streams (started 1 ms apart, each TTFT 50 ms then 50 tokens every 50 ms);');
    console.log('held = no errors and median TTFT and ITL error ≤ 5 ms (the rule since the first release):');
    const summary: string[] = [];
    for (const [name, via] of [
      ['one event loop', oneLoop],
      ['StreamPool, 2 worker threads', pooled],
    ] as const) {
      console.log(`\n  ${name}`);
      console.log(
        '  streams  errors  TTFT err p50/p99 ms  ITL err p50/p99 ms  wall s  CPU µs/chunk client/server  held',
      );
      let held = 0;
      let goal = 'not reached';
      const deadline = performance.now() + 40_000;
      for (const streams of LEVELS) {
        if (performance.now() > deadline) break;
        const r = await measure(via, streams, [50, 50, 50], 1);
        const ttftError = distribution(r.ttftErrors);
        const itlError = distribution(r.itlErrors);
        const ok = r.errors === 0 && (ttftError?.p50 ?? Infinity) <= 5 && (itlError?.p50 ?? Infinity) <= 5;
        if (ok) held = streams;
        if (streams === GOAL.streams)
          goal =
            r.errors === 0 && (ttftError?.p50 ?? Infinity) <= GOAL.p50 && (ttftError?.p99 ?? Infinity) <= GOAL.p99
              ? `met (${f(ttftError?.p50)}/${f(ttftError?.p99)} ms)`
              : `NOT met (${r.errors} errors, ${f(ttftError?.p50)}/${f(ttftError?.p99)} ms)`;
        console.log(
          `  ${String(streams).padStart(7)}  ${String(r.errors).padStart(6)}  ${`${f(ttftError?.p50)}/${f(ttftError?.p99)}`.padStart(19)}  ${`${f(itlError?.p50)}/${f(itlError?.p99)}`.padStart(18)}  ${r.seconds.toFixed(1).padStart(6)}  ${`${r.clientCpuUs.toFixed(0)}/${r.serverCpuUs.toFixed(0)}`.padStart(27)}  ${ok ? 'yes' : 'no'}`,
        );
        if (!ok && streams >= GOAL.streams) break;
      }
      summary.push(
        `  ${name}: largest concurrency held ${held} streams (target ≥ ${GOAL.streams}); at ${GOAL.streams} streams ` +
          `TTFT error median/p99 ≤ ${GOAL.p50}/${GOAL.p99} ms: ${goal}`,
      );
    }
    console.log(`\n${summary.join('\n')}`);
    console.log(
      `  load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')} at end.`,
    );
  } finally {
    child.kill();
    await pool.close();
  }
}

/**
 * Client-measured TTFT and ITLs against the server's truth (each side's own clock, differences
 * only): true TTFT is request arrival → first write, so the error includes the client's delays in
 * sending and reading.
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
