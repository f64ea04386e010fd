import assert from 'node:assert/strict';
import { sharedEngine } from './shared';
import type { LlamaEngine } from './llamaEngine';

interface Streamed {
  status: number;
  contentType: string | null;
  /** Parsed `data:` payloads, `[DONE]` left out. */
  events: Record<string, unknown>[];
  done: boolean;
  text: string;
  /** Send → first chunk with text, ms. */
  ttftMs: number;
  usage?: { prompt_tokens: number; completion_tokens: number; prompt_tokens_details?: { cached_tokens: number } };
}

async function post(engine: LlamaEngine, path: string, body: unknown, signal?: AbortSignal): Promise<Streamed> {
  const started = performance.now();
  const res = await fetch(`${engine.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
  const out: Streamed = {
    status: res.status,
    contentType: res.headers.get('content-type'),
    events: [],
    done: false,
    text: '',
    ttftMs: Number.NaN,
  };
  let buffer = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = frame.replace(/^data: /, '');
      if (data === '[DONE]') {
        out.done = true;
        continue;
      }
      const event = JSON.parse(data) as Record<string, unknown>;
      out.events.push(event);
      const choice = (event.choices as { delta?: { content?: string }; text?: string }[] | undefined)?.[0];
      const piece = choice?.delta?.content ?? choice?.text ?? '';
      if (piece !== '' && Number.isNaN(out.ttftMs)) out.ttftMs = performance.now() - started;
      out.text += piece;
      if (event.usage) out.usage = event.usage as Streamed['usage'];
    }
  }
  if (!res.headers.get('content-type')?.includes('event-stream') && buffer) out.events.push(JSON.parse(buffer));
  return out;
}

/** A streaming request to hang up on: resolves `firstText` once text arrived, `closed` once the stream ended. */
function open(engine: LlamaEngine, body: unknown) {
  const control = new AbortController();
  let first!: () => void;
  const firstText = new Promise<void>((resolve) => (first = resolve));
  const closed = (async () => {
    try {
      const res = await fetch(`${engine.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: control.signal,
      });
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>)
        if (/"content":"[^"]/.test(new TextDecoder().decode(chunk))) first();
    } catch (error) {
      if (!control.signal.aborted) throw error;
    }
  })();
  return { firstText, closed, abort: () => control.abort() };
}

const chat = (content: string, extra: Record<string, unknown> = {}) => ({
  model: 'random-llama',
  messages: [
    { role: 'system', content: 'You are terse.' },
    { role: 'user', content },
  ],
  stream: true,
  stream_options: { include_usage: true },
  max_tokens: 8,
  temperature: 0,
  ...extra,
});

/** Prompt tokens the engine should report: BOS + one token per UTF-8 byte of the rendered chat. */
const chatTokens = (content: string) =>
  1 + Buffer.byteLength(`<|system|>\nYou are terse.\n<|user|>\n${content}\n<|assistant|>\n`);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

describe('llama engine: OpenAI-compatible server over llama.cpp', () => {
  let engine: LlamaEngine;
  before(async () => {
    engine = await sharedEngine();
    process.stderr.write(
      `      (engine up in ${engine.startupMs} ms: ${JSON.stringify({ ...engine, stop: undefined })})\n`,
    );
  });

  it('lists the generated model, as llama.cpp read it', async () => {
    const res = await fetch(`${engine.baseUrl}/models`);
    const body = (await res.json()) as { data: { id: string; meta: Record<string, number> }[] };
    assert.equal(body.data[0]!.id, 'random-llama');
    const meta = body.data[0]!.meta;
    assert.equal(meta.n_vocab, 258);
    assert.equal(meta.n_embd, 256);
    assert.equal(meta.n_ctx_train, 16384);
    assert.equal(meta.n_ctx, 4096);
  });

  it('streams a chat completion as SSE with the usage chunk and real prompt token counts', async () => {
    const content = 'Name three rivers in Europe. ünïcödé counts in bytes.';
    const r = await post(engine, '/chat/completions', chat(content));
    assert.equal(r.status, 200);
    assert.match(r.contentType ?? '', /text\/event-stream/);
    assert.ok(r.done, 'ends with [DONE]');
    assert.equal(r.usage?.prompt_tokens, chatTokens(content));
    assert.equal(r.usage?.completion_tokens, 8);
    assert.equal(r.text.length, 8, 'one printable character per token');
    const first = r.events[0] as { object: string; choices: { delta: { role?: string } }[] };
    assert.equal(first.object, 'chat.completion.chunk');
    assert.equal(first.choices[0]!.delta.role, 'assistant');
    const last = r.events.at(-2) as { choices: { finish_reason: string }[] };
    assert.equal(last.choices[0]!.finish_reason, 'length');
    assert.deepEqual((r.events.at(-1) as { choices: unknown[] }).choices, [], 'usage chunk has no choices');
  });

  it('streams a text completion, and leaves usage out unless asked', async () => {
    const r = await post(engine, '/completions', { prompt: 'Once upon a time', max_tokens: 5, stream: true });
    assert.equal(r.status, 200);
    assert.equal(r.usage, undefined);
    assert.equal(r.text.length, 5);
    assert.equal((r.events[0] as { object: string }).object, 'text_completion.chunk');
    const whole = await fetch(`${engine.baseUrl}/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'Once upon a time', max_tokens: 5 }),
    });
    const body = (await whole.json()) as { choices: { text: string }[]; usage: { prompt_tokens: number } };
    assert.equal(body.usage.prompt_tokens, 1 + 'Once upon a time'.length);
    assert.equal(body.choices[0]!.text, r.text, 'greedy decoding is deterministic');
  });

  it('reuses the KV cache of the longest matching prefix: a repeated prompt is warm, a nonce-busted one cold', async () => {
    const document = 'The quick brown fox jumps over the lazy dog. '.repeat(20);
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) {
      const c = await post(engine, '/chat/completions', chat(`[nonce ${Date.now()}-${i}] ${document}`));
      // Only what precedes the nonce (BOS, the system message, the start of the user turn) is shared.
      const shared = c.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      assert.ok(shared < chatTokens('[nonce '), `cold request reused ${shared} tokens`);
      cold.push(c.ttftMs);
    }
    const prompt = `[fixed] ${document}`;
    await post(engine, '/chat/completions', chat(prompt));
    for (let i = 0; i < 3; i++) {
      const w = await post(engine, '/chat/completions', chat(prompt));
      assert.equal(
        w.usage?.prompt_tokens_details?.cached_tokens,
        chatTokens(prompt) - 1,
        'all but the last prompt token reused',
      );
      warm.push(w.ttftMs);
    }
    process.stderr.write(
      `      (TTFT at ${chatTokens(prompt)} tokens: cold median ${median(cold).toFixed(1)} ms, warm ${median(warm).toFixed(1)} ms)\n`,
    );
    assert.ok(median(warm) * 3 < median(cold), `warm ${median(warm)} ms vs cold ${median(cold)} ms`);
  });

  it('runs requests on its sequences at once, queues the rest, and frees a sequence when its client hangs up', async () => {
    // Two long generations hold both sequences (each has streamed text), two more wait for one.
    const running = [
      open(engine, chat('hold one', { max_tokens: 4000 })),
      open(engine, chat('hold two', { max_tokens: 4000 })),
    ];
    await Promise.all(running.map((r) => r.firstText));
    const queued = [open(engine, chat('queued one')), open(engine, chat('queued two'))];
    for (const r of [...running, ...queued]) r.abort();
    for (const r of [...running, ...queued]) await r.closed;
    const after = await Promise.all([1, 2, 3].map((i) => post(engine, '/chat/completions', chat(`after ${i}`))));
    for (const r of after) assert.equal(r.usage?.completion_tokens, 8);
  });

  it('refuses what it does not implement and prompts beyond its context, with OpenAI-style errors', async () => {
    const unknown = await fetch(`${engine.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...chat('x'), tools: [] }),
    });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: { message: string } }).error.message, /tools/);
    const long = await fetch(`${engine.baseUrl}/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'x'.repeat(5000), max_tokens: 4 }),
    });
    assert.equal(long.status, 400);
    assert.match(((await long.json()) as { error: { message: string } }).error.message, /context is 4096 tokens/);
    assert.equal((await fetch(`${engine.baseUrl}/embeddings`, { method: 'POST' })).status, 404);
  });
});
