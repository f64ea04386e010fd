// npm run stress: load and fault figures for docs/limits.md (not part of npm test; about 20 s).
// Everything listens on 127.0.0.1. Prints figures and exits 1 if any request was lost or
// double-counted, i.e. if the benchmark's records disagree with what the server saw and injected.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseEndpoint, runBenchmark, type EndpointConfig, type LevelResult } from '../src/core/bench';
import { linearLatencyModel } from '../src/core/sim/latencyModel';
import { startSimulator } from '../src/core/sim/server';

const MESSAGES = [{ role: 'user' as const, content: 'Say something.' }];
const countTokens = (text: string) => Math.max(1, Math.round(text.length / 4));

function endpoint(baseUrl: string): EndpointConfig {
  const parsed = parseEndpoint({ name: 'stress', baseUrl, model: 'stress', kind: 'openai-chat' });
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

/** Most requests open at once, from their send times and ends. */
function peakOpen(level: LevelResult): number {
  const edges = level.requests.flatMap((r) => [
    { t: r.startMs, d: 1 },
    { t: r.startMs + (r.e2eMs ?? r.ttfbMs ?? 0), d: -1 },
  ]);
  edges.sort((a, b) => a.t - b.t || a.d - b.d);
  let open = 0;
  let peak = 0;
  for (const e of edges) peak = Math.max(peak, (open += e.d));
  return peak;
}

/** Concurrent streams held against the simulator: every one must finish with all its tokens. */
async function heldStreams(concurrency: number): Promise<boolean> {
  const sim = await startSimulator({
    latency: linearLatencyModel({
      prefillBaseMs: 1,
      prefillTokensPerSecond: 1e7,
      tpotBaseMs: 40,
      tpotMsPer1kContext: 0,
      tpotMsPerExtraSequence: 0,
    }),
    tokenize: (text) => Array.from({ length: Math.ceil(text.length / 4) }, (_, i) => i),
  });
  try {
    const started = performance.now();
    const result = await runBenchmark({
      endpoint: endpoint(sim.url),
      messages: MESSAGES,
      maxTokens: 32,
      requests: concurrency,
      warmup: 0,
      concurrency: [concurrency],
      cache: 'cold',
      timeoutMs: 60_000,
      countTokens,
    });
    const level = result.modes[0]?.levels[0] as LevelResult;
    const complete = level.requests.filter((r) => r.ok && r.outputTokens === 32).length;
    const ms = performance.now() - started;
    console.log(
      `held streams: ${concurrency} concurrent → ${complete}/${concurrency} complete with 32 tokens each, peak ${peakOpen(level)} open, ${(ms / 1000).toFixed(1)} s (each stream ≥ 1.3 s)`,
    );
    return complete === concurrency;
  } finally {
    await sim.close();
  }
}

type Fault = 'ok' | 'reset' | 'stall' | '5xx';

/** Deterministic pseudo-random faults (mulberry32), so runs are comparable. */
function faultPicker(seed: number, rates: Record<Exclude<Fault, 'ok'>, number>): () => Fault {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t ^= t + Math.imul(t ^ (t >>> 7), 61 | t);
    const r = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    if (r < rates.reset) return 'reset';
    if (r < rates.reset + rates.stall) return 'stall';
    if (r < rates.reset + rates.stall + rates['5xx']) return '5xx';
    return 'ok';
  };
}

const chunk = (text: string) =>
  `data: ${JSON.stringify({ id: 's', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })}\n\n`;

/** A server that answers each request with a stream or an injected fault, and counts both. */
async function faultServer(pick: () => Fault) {
  const injected: Record<Fault, number> = { ok: 0, reset: 0, stall: 0, '5xx': 0 };
  const stream = (res: ServerResponse, fault: Fault) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(chunk(' first'));
    if (fault === 'reset') {
      setTimeout(() => res.socket?.destroy(), 5);
      return;
    }
    if (fault === 'stall') return; // headers and one token, then silence: the client's timeout must end it
    let sent = 1;
    const timer = setInterval(() => {
      res.write(chunk(' more'));
      if (++sent === 8) {
        clearInterval(timer);
        res.end('data: [DONE]\n\n');
      }
    }, 4);
    res.on('close', () => clearInterval(timer));
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const fault = pick();
      injected[fault]++;
      if (fault === '5xx') {
        const status = injected['5xx'] % 2 ? 500 : 503;
        res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '1' });
        res.end(JSON.stringify({ error: { message: `injected ${status}` } }));
      } else {
        stream(res, fault);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    injected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Requests under injected faults: each must be recorded exactly once, ok or with the right class. */
async function underFaults(requests: number, concurrency: number): Promise<boolean> {
  const rates = { reset: 0.05, stall: 0.05, '5xx': 0.1 };
  const server = await faultServer(faultPicker(20261130, rates));
  try {
    const started = performance.now();
    const result = await runBenchmark({
      endpoint: endpoint(server.url),
      messages: MESSAGES,
      maxTokens: 8,
      requests,
      warmup: 0,
      concurrency: [concurrency],
      cache: 'cold',
      timeoutMs: 500,
      countTokens,
    });
    const ms = performance.now() - started;
    const level = result.modes[0]?.levels[0] as LevelResult;
    const byClass = level.summary.errorsByClass;
    const seen = Object.values(server.injected).reduce((a, b) => a + b, 0);
    const checks: Array<[string, number, number]> = [
      ['requests recorded vs received by the server', level.requests.length, seen],
      ['records vs requests asked for', level.requests.length, requests],
      ['ok vs streams completed', level.summary.succeeded, server.injected.ok],
      ['http errors vs injected 5xx', byClass.http ?? 0, server.injected['5xx']],
      ['timeouts vs injected stalls', byClass.timeout ?? 0, server.injected.stall],
      [
        'connection/stream errors vs injected resets',
        (byClass.connection ?? 0) + (byClass['stream-error'] ?? 0),
        server.injected.reset,
      ],
      ['ok + failed vs records', level.summary.succeeded + level.summary.failed, level.requests.length],
    ];
    console.log(
      `faults: ${requests} requests at concurrency ${concurrency}, ${rates.reset * 100}% resets, ${rates.stall * 100}% stalls (timeout 500 ms), ${rates['5xx'] * 100}% 5xx → ` +
        `${level.summary.succeeded} ok, errors ${JSON.stringify(byClass)}, ${(ms / 1000).toFixed(1)} s`,
    );
    const retryAfter = level.requests.filter((r) => r.error?.retryAfterMs === 1000).length;
    console.log(
      `  retry-after kept on ${retryAfter} of ${byClass.http ?? 0} 5xx records; injected ${JSON.stringify(server.injected)}`,
    );
    let pass = true;
    for (const [what, got, want] of checks) {
      const ok = got === want;
      pass &&= ok;
      console.log(`  ${ok ? 'ok  ' : 'FAIL'} ${what}: ${got} = ${want}`);
    }
    return pass;
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  const results = [await heldStreams(256), await heldStreams(1024), await underFaults(2000, 64)];
  const pass = results.every(Boolean);
  console.log(pass ? 'stress: every request accounted for exactly once' : 'stress: FAILED');
  process.exitCode = pass ? 0 : 1;
}

void main();
