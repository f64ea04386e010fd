import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LlamaContext, LlamaModel, Token } from 'node-llama-cpp';
import { parseRequest, type GenerationRequest } from './requests.ts';
import { SequencePool } from './sequencePool.ts';

/** Request bodies beyond this are refused (413): far more than any prompt the context can hold. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

export interface EngineServer {
  /** `http://127.0.0.1:PORT/v1`, the base URL an OpenAI client takes. */
  baseUrl: string;
  close(): Promise<void>;
}

export interface ServeOptions {
  model: LlamaModel;
  context: LlamaContext;
  /** The id `/v1/models` lists and responses carry. */
  modelId: string;
  /** 0 picks a free port. */
  port: number;
}

/**
 * A minimal OpenAI-compatible server over one llama.cpp context: `/v1/chat/completions` and
 * `/v1/completions`, streamed as SSE (with the usage chunk when `stream_options.include_usage` is
 * set) or as one JSON body, and `/v1/models`. It listens on 127.0.0.1 only.
 */
export async function serve(options: ServeOptions): Promise<EngineServer> {
  const pool = new SequencePool(options.context);
  const server = createServer((req, res) => {
    handle(options, pool, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, error instanceof Error ? error.message : String(error));
      else res.destroy();
    });
  });
  server.listen(options.port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, close: () => close(server) };
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

async function handle(
  options: ServeOptions,
  pool: SequencePool,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (req.method === 'GET' && path === '/v1/models') {
    const { model, context } = options;
    // As llama.cpp's own server reports it: read back from the loaded model, not from our writer.
    const meta = {
      vocab_type: model.vocabularyType,
      n_vocab: [...model.iterateAllTokens()].length,
      n_ctx_train: model.trainContextSize,
      n_embd: model.embeddingVectorSize,
      n_ctx: context.contextSize,
      size: model.size,
      description: model.typeDescription,
    };
    return sendJson(res, 200, {
      object: 'list',
      data: [
        { id: options.modelId, object: 'model', owned_by: 'prompt-lens', max_model_len: context.contextSize, meta },
      ],
    });
  }
  const kind = path === '/v1/chat/completions' ? 'chat' : path === '/v1/completions' ? 'completion' : undefined;
  if (!kind) return sendError(res, 404, `no route ${req.method} ${path}`, 'not_found_error');
  if (req.method !== 'POST') return sendError(res, 405, `${path} takes POST`);
  const body = await readBody(req);
  if (body === undefined) return sendError(res, 413, `request body over ${MAX_BODY_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return sendError(res, 400, 'body is not JSON');
  }
  const parsed = parseRequest(kind, json);
  if (!parsed.ok) return sendError(res, 400, parsed.error);
  const request = parsed.value;
  // BOS first when the vocabulary asks for it, as llama.cpp's own server does.
  const bos = options.model.tokens.shouldPrependBosToken ? options.model.tokens.bos : null;
  const tokens: Token[] = [...(bos !== null ? [bos] : []), ...options.model.tokenize(request.prompt)];
  const limit = options.context.contextSize;
  if (tokens.length + request.maxTokens > limit)
    return sendError(
      res,
      400,
      `this model's context is ${limit} tokens; the prompt has ${tokens.length} and max_tokens asks for ${request.maxTokens}`,
    );
  await respond(options, pool, kind, request, tokens, res);
}

async function respond(
  options: ServeOptions,
  pool: SequencePool,
  kind: 'chat' | 'completion',
  request: GenerationRequest,
  tokens: Token[],
  res: ServerResponse,
): Promise<void> {
  const abort = new AbortController();
  // A client that hangs up stops the generation and frees its sequence.
  res.on('close', () => abort.abort(new Error('client closed the connection')));
  const id = `${kind === 'chat' ? 'chatcmpl' : 'cmpl'}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  const created = Math.floor(Date.now() / 1000);
  const model = request.model ?? options.modelId;
  const object = kind === 'chat' ? 'chat.completion' : 'text_completion';
  const choice = (text: string, first: boolean, finish: string | null) =>
    kind === 'chat'
      ? { index: 0, delta: first ? { role: 'assistant', content: text } : { content: text }, finish_reason: finish }
      : { index: 0, text, finish_reason: finish };
  if (request.stream) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
  }
  const event = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  const chunk = (choices: unknown[]) => ({ id, object: `${object}.chunk`, created, model, choices });

  let lease;
  try {
    lease = await pool.acquire(tokens, abort.signal);
  } catch (error) {
    if (abort.signal.aborted) return;
    throw error;
  }
  let text = '';
  let generated = 0;
  let finish = 'length';
  try {
    const output = new TextStream(options.model);
    let first = true;
    const evaluation = lease.sequence.evaluate(tokens.slice(lease.reused), {
      temperature: request.temperature,
      ...(request.topP !== undefined ? { topP: request.topP } : {}),
      ...(request.seed !== undefined ? { seed: request.seed } : {}),
    });
    for await (const token of evaluation) {
      if (abort.signal.aborted) break;
      generated++;
      const piece = output.push(token);
      text += piece;
      const done = generated >= request.maxTokens;
      if (request.stream && piece !== '') {
        event(chunk([choice(piece, first, null)]));
        first = false;
      }
      if (done) break;
    }
    // The generator ends by itself only at an end-of-generation token.
    if (generated < request.maxTokens) finish = 'stop';
  } finally {
    lease.release();
  }
  if (abort.signal.aborted) return;
  const usage = {
    prompt_tokens: tokens.length,
    completion_tokens: generated,
    total_tokens: tokens.length + generated,
    prompt_tokens_details: { cached_tokens: lease.reused },
  };
  if (request.stream) {
    event(chunk([choice('', false, finish)]));
    if (request.includeUsage) event({ ...chunk([]), usage });
    res.end('data: [DONE]\n\n');
    return;
  }
  const message =
    kind === 'chat'
      ? { index: 0, message: { role: 'assistant', content: text }, finish_reason: finish }
      : { index: 0, text, finish_reason: finish };
  sendJson(res, 200, { id, object, created, model, choices: [message], usage });
}

/**
 * Token → text for streaming: detokenises everything generated so far and hands out the new tail,
 * holding it back while it ends in an incomplete UTF-8 sequence (U+FFFD), as serving engines do.
 */
class TextStream {
  private readonly tokens: Token[] = [];
  private sent = 0;
  constructor(private readonly model: LlamaModel) {}

  push(token: Token): string {
    this.tokens.push(token);
    const text = this.model.detokenize(this.tokens);
    if (text.endsWith('\uFFFD')) return '';
    const piece = text.slice(this.sent);
    this.sent = text.length;
    return piece;
  }
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, status: number, message: string, type = 'invalid_request_error'): void {
  sendJson(res, status, { error: { message, type, code: status } });
}
