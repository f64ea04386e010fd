import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';
import { getTokenizer } from '../tokenize/registry';
import { describeIssues } from '../bench/endpoints';
import { linearLatencyModel, type SimLatencyModel } from './latencyModel';
import { PrefixCache } from './prefixCache';
import { chatRequestSchema, completionRequestSchema, promptText, type SimRequest } from './requestSchema';

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

/** Starts the simulated endpoint on 127.0.0.1 and resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const model = simulatorModelName(options.model);
  const latency = options.latency ?? linearLatencyModel();
  const tokenize = options.tokenize ?? ((text: string) => getTokenizer('o200k_base').encode(text));
  const cache = new PrefixCache(options.blockSize);
  const log = options.log ?? (() => undefined);
  // One prefill at a time, as one GPU runs them: simultaneous requests queue for their first token.
  let prefillQueue: Promise<void> = Promise.resolve();
  let decoding = 0;
  let nextId = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`simulator: request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) sendError(res, 500, 'simulator internal error');
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') {
      sendJson(res, 200, { object: 'list', data: [{ id: model, object: 'model', owned_by: 'prompt-lens-simulator' }] });
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
    await serve(parsed, 'messages' in parsed, res);
  }

  async function serve(request: SimRequest, chat: boolean, res: ServerResponse): Promise<void> {
    const id = `sim-${++nextId}`;
    const tokens = tokenize(promptText(request));
    const outputTokens = request.max_completion_tokens ?? request.max_tokens ?? options.defaultMaxTokens ?? 64;
    let closed = false;
    res.on('close', () => {
      closed = true;
    });
    if (request.stream) {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      });
      res.flushHeaders();
    }

    let cached = 0;
    let prefillMs = 0;
    const turn = prefillQueue.then(async () => {
      if (closed) return;
      // Looked up when the prefill runs, not on arrival: a request queued behind an identical one hits.
      cached = Math.min(cache.lookup(tokens), Math.max(0, tokens.length - 1));
      prefillMs = latency.prefillMs(tokens.length - cached, cached);
      await delay(prefillMs);
      cache.insert(tokens);
    });
    prefillQueue = turn.catch(() => undefined);
    await turn;
    if (closed) return;

    const created = Math.floor(Date.now() / 1000);
    const chunk = (choice: Record<string, unknown>) =>
      `data: ${JSON.stringify({ id, object: chat ? 'chat.completion.chunk' : 'text_completion', created, model, choices: [{ index: 0, ...choice }] })}\n\n`;
    const piece = (k: number) => WORDS[k % WORDS.length]!;
    const usage = {
      prompt_tokens: tokens.length,
      completion_tokens: outputTokens,
      total_tokens: tokens.length + outputTokens,
      prompt_tokens_details: { cached_tokens: cached },
    };

    decoding++;
    let tpotSum = 0;
    try {
      if (request.stream && chat) res.write(chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null }));
      let due = performance.now();
      for (let k = 0; k < outputTokens && !closed; k++) {
        if (k > 0) {
          const step = latency.tpotMs(tokens.length + k, decoding);
          tpotSum += step;
          due += step;
          await delay(due - performance.now());
        }
        if (request.stream && !closed)
          res.write(
            chunk(
              chat ? { delta: { content: piece(k) }, finish_reason: null } : { text: piece(k), finish_reason: null },
            ),
          );
      }
    } finally {
      decoding--;
    }
    if (closed) return;
    log(
      `simulator ${id}: ${tokens.length} prompt tokens (${cached} from the prefix cache) → simulated prefill ${prefillMs.toFixed(1)} ms, ` +
        `${outputTokens} tokens at ${(outputTokens > 1 ? tpotSum / (outputTokens - 1) : 0).toFixed(1)} ms/token`,
    );
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
    res.write(chunk(chat ? { delta: {}, finish_reason: 'length' } : { text: '', finish_reason: 'length' }));
    if (request.stream_options?.include_usage)
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage })}\n\n`,
      );
    res.end('data: [DONE]\n\n');
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}/v1`;
  log(`prompt-lens SIMULATOR (simulated latencies, not a real model) serving model "${model}" at ${url}`);
  return {
    url,
    model,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
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

function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
