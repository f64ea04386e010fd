import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { getTokenizer } from '../tokenize/registry';
import { describeIssues } from '../bench/endpoints';
import { linearLatencyModel, type SimLatencyModel } from './latencyModel';
import { PrefixCache } from './prefixCache';
import { chatRequestSchema, completionRequestSchema, promptText, type SimRequest } from './requestSchema';

/** The simulator's time. */
export interface SimClock {
  /** Monotonic milliseconds. */
  now(): number;
  /** Resolves after `ms` milliseconds of this clock. */
  sleep(ms: number): Promise<void>;
}

/** Real time: performance.now and timers. */
export const REAL_CLOCK: SimClock = {
  now: () => performance.now(),
  sleep: (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
};

export interface SimulatorOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  model?: string;
  latency?: SimLatencyModel;
  /** Token ids of a text; defaults to o200k_base. */
  tokenize?: (text: string) => number[];
  /** Output tokens when a request sets no max_tokens. */
  defaultMaxTokens?: number;
  blockSize?: number;
  log?: (line: string) => void;
  /**
   * Whose time the simulated delays take; real time by default. Tests pass a virtual clock and give
   * the client the same one, so what it measures is exactly the latency model's, whatever the load.
   */
  clock?: SimClock;
}

export interface RunningSimulator {
  /** Base URL of the OpenAI-compatible API, e.g. http://127.0.0.1:PORT/v1. */
  url: string;
  /** The served model name; it always says it is a simulator. */
  model: string;
  close(): Promise<void>;
}

const MAX_BODY_BYTES = 8 * 1024 * 1024;
const WORDS = [' simulated', ' output', ' token', ' from', ' the', ' prompt', ' lens', ' simulator', '.'];

export function simulatorModelName(model = 'prompt-lens-simulator'): string {
  return /simulat/i.test(model) ? model : `${model}-simulator`;
}

/** The options with their defaults. */
interface SimConfig {
  port: number;
  model: string;
  latency: SimLatencyModel;
  tokenize: (text: string) => number[];
  defaultMaxTokens: number;
  log: (line: string) => void;
  clock: SimClock;
}

/** What the simulated GPU holds across requests. */
interface SimState {
  cache: PrefixCache;
  /** One prefill at a time, as one GPU runs them: simultaneous requests queue for their first token. */
  prefillQueue: Promise<void>;
  /** Sequences decoding now (the batch a decode step serves). */
  decoding: number;
  nextId: number;
}

/** One request being served. */
interface SimCall {
  id: string;
  request: SimRequest;
  chat: boolean;
  res: ServerResponse;
  tokens: number[];
  outputTokens: number;
  /** The client went away: stop working for it. */
  closed: boolean;
  cached: number;
  prefillMs: number;
  tpotSumMs: number;
}

/**
 * Starts the simulated endpoint on 127.0.0.1 and resolves once it listens. Named steps: resolve the
 * options → bind → serve each request (route → prefill → decode → finish) → close.
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const config = resolveOptions(options);
  const state: SimState = {
    cache: new PrefixCache(options.blockSize),
    prefillQueue: Promise.resolve(),
    decoding: 0,
    nextId: 0,
  };
  const server = createServer((req, res) => {
    route(req, res, config, state).catch((error: unknown) => {
      config.log(`simulator: request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendError(res, 500, 'simulator internal error');
      else res.destroy();
    });
  });
  const url = await bind(server, config.port);
  config.log(`prompt-lens SIMULATOR (simulated latencies, not a real model) serving model "${config.model}" at ${url}`);
  return { url, model: config.model, close: () => close(server) };
}

function resolveOptions(options: SimulatorOptions): SimConfig {
  return {
    port: options.port ?? 0,
    model: simulatorModelName(options.model),
    latency: options.latency ?? linearLatencyModel(),
    tokenize: options.tokenize ?? ((text: string) => getTokenizer('o200k_base').encode(text)),
    defaultMaxTokens: options.defaultMaxTokens ?? 64,
    log: options.log ?? (() => undefined),
    clock: options.clock ?? REAL_CLOCK,
  };
}

/** Listens on 127.0.0.1 (rejects when the port is taken); the API's base URL. */
async function bind(server: Server, port: number): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

function close(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** GET /v1/models, or a validated completion request to serve; anything else is refused with why. */
async function route(req: IncomingMessage, res: ServerResponse, config: SimConfig, state: SimState): Promise<void> {
  const path = (req.url ?? '/').split('?')[0];
  if (req.method === 'GET' && path === '/v1/models') {
    sendJson(res, 200, {
      object: 'list',
      data: [{ id: config.model, object: 'model', owned_by: 'prompt-lens-simulator' }],
    });
    return;
  }
  const schema =
    req.method !== 'POST'
      ? undefined
      : path === '/v1/chat/completions'
        ? chatRequestSchema
        : path === '/v1/completions'
          ? completionRequestSchema
          : undefined;
  if (!schema)
    return sendError(
      res,
      404,
      `no route ${req.method} ${path}; the simulator serves POST /v1/chat/completions and /v1/completions`,
    );
  const body = await readBody(req);
  if (body === undefined) return sendError(res, 413, `request body over ${MAX_BODY_BYTES} bytes`);
  const parsed = parseRequest(body, schema);
  if (typeof parsed === 'string') return sendError(res, 400, parsed);
  await serve(parsed, 'messages' in parsed, res, config, state);
}

async function serve(
  request: SimRequest,
  chat: boolean,
  res: ServerResponse,
  config: SimConfig,
  state: SimState,
): Promise<void> {
  const call: SimCall = {
    id: `sim-${++state.nextId}`,
    request,
    chat,
    res,
    tokens: config.tokenize(promptText(request)),
    outputTokens: request.max_completion_tokens ?? request.max_tokens ?? config.defaultMaxTokens,
    closed: false,
    cached: 0,
    prefillMs: 0,
    tpotSumMs: 0,
  };
  res.on('close', () => {
    call.closed = true;
  });
  if (request.stream) {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.flushHeaders();
  }
  await prefill(call, config, state);
  if (call.closed) return;
  const created = Math.floor(Date.now() / 1000);
  await decode(call, created, config, state);
  if (call.closed) return;
  finish(call, created, config);
}

/** Waits its turn in the prefill queue, then takes the prefix cache's hit and the model's prefill time. */
async function prefill(call: SimCall, config: SimConfig, state: SimState): Promise<void> {
  const turn = state.prefillQueue.then(async () => {
    if (call.closed) return;
    // Looked up when the prefill runs, not on arrival: a request queued behind an identical one hits.
    call.cached = Math.min(state.cache.lookup(call.tokens), Math.max(0, call.tokens.length - 1));
    call.prefillMs = config.latency.prefillMs(call.tokens.length - call.cached, call.cached);
    await config.clock.sleep(call.prefillMs);
    state.cache.insert(call.tokens);
  });
  state.prefillQueue = turn.catch(() => undefined);
  await turn;
}

/** Output tokens at the model's decode pace for the batch decoding now; streamed ones are written as they come. */
async function decode(call: SimCall, created: number, config: SimConfig, state: SimState): Promise<void> {
  const { request, chat, res } = call;
  const { clock } = config;
  state.decoding++;
  // The role chunk goes out in one write with the first token: both are ready at the same moment, and a
  // client reading the stream on a virtual clock reads them as one arrival.
  let role =
    request.stream && chat
      ? chunk(call, created, config, { delta: { role: 'assistant', content: '' }, finish_reason: null })
      : '';
  try {
    let due = clock.now();
    for (let k = 0; k < call.outputTokens && !call.closed; k++) {
      if (k > 0) {
        const step = config.latency.tpotMs(call.tokens.length + k, state.decoding);
        call.tpotSumMs += step;
        due += step;
        await clock.sleep(due - clock.now());
      }
      if (request.stream && !call.closed)
        res.write(
          role +
            chunk(
              call,
              created,
              config,
              chat ? { delta: { content: piece(k) }, finish_reason: null } : { text: piece(k), finish_reason: null },
            ),
        );
      role = '';
    }
  } finally {
    state.decoding--;
  }
}

/** The log line, then the whole answer (not streamed) or the stream's last chunks. */
function finish(call: SimCall, created: number, config: SimConfig): void {
  const { id, request, chat, res, tokens, outputTokens, cached } = call;
  const { model } = config;
  config.log(
    `simulator ${id}: ${tokens.length} prompt tokens (${cached} from the prefix cache) → simulated prefill ${call.prefillMs.toFixed(1)} ms, ` +
      `${outputTokens} tokens at ${(outputTokens > 1 ? call.tpotSumMs / (outputTokens - 1) : 0).toFixed(1)} ms/token`,
  );
  const usage = {
    prompt_tokens: tokens.length,
    completion_tokens: outputTokens,
    total_tokens: tokens.length + outputTokens,
    prompt_tokens_details: { cached_tokens: cached },
  };
  if (!request.stream) {
    const text = Array.from({ length: outputTokens }, (_, k) => piece(k)).join('');
    const choice = chat
      ? { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'length' }
      : { index: 0, text, finish_reason: 'length' };
    sendJson(res, 200, {
      id,
      object: chat ? 'chat.completion' : 'text_completion',
      created,
      model,
      choices: [choice],
      usage,
    });
    return;
  }
  res.write(
    chunk(call, created, config, chat ? { delta: {}, finish_reason: 'length' } : { text: '', finish_reason: 'length' }),
  );
  if (request.stream_options?.include_usage)
    res.write(
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
    );
  res.end('data: [DONE]\n\n');
}

function chunk(call: SimCall, created: number, config: SimConfig, choice: Record<string, unknown>): string {
  return `data: ${JSON.stringify({ id: call.id, object: call.chat ? 'chat.completion.chunk' : 'text_completion', created, model: config.model, choices: [{ index: 0, ...choice }] })}\n\n`;
}

function piece(k: number): string {
  return WORDS[k % WORDS.length]!;
}

function parseRequest(body: string, schema: z.ZodType<SimRequest>): SimRequest | string {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return 'request body is not JSON';
  }
  const parsed = schema.safeParse(json);
  return parsed.success ? parsed.data : `invalid request: ${describeIssues(parsed.error)}`;
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, { error: { message, type: 'invalid_request_error', code: status } });
}
