import assert from 'node:assert/strict';
import { measureRequest } from '../../../../src/core/bench/client';
import { buildStreamRequest } from '../../../../src/core/bench/runner';
import type { SimLatencyModel } from '../../../../src/core/sim/latencyModel';
import { PrefixCache } from '../../../../src/core/sim/prefixCache';
import { startSimulator, type RunningSimulator } from '../../../../src/core/sim/server';

/** One token per character keeps the tests fast and the token counts obvious. */
const charTokens = (text: string) => Array.from(text, (c) => c.codePointAt(0)!);

describe('simulated endpoint', () => {
  let sim: RunningSimulator | undefined;
  afterEach(async () => {
    await sim?.close();
    sim = undefined;
  });

  const start = (latency: SimLatencyModel) => startSimulator({ latency, tokenize: charTokens, defaultMaxTokens: 4 });
  const ask = (s: RunningSimulator, content: string, maxTokens = 3) =>
    measureRequest(
      buildStreamRequest(
        { name: 'sim', kind: 'openai-chat', baseUrl: s.url, model: s.model },
        undefined,
        [{ role: 'user', content }],
        maxTokens,
      ),
      {
        timeoutMs: 5000,
        countTokens: () => 0,
      },
    );

  it('listens on 127.0.0.1 only and says it is a simulator', async () => {
    const lines: string[] = [];
    sim = await startSimulator({ model: 'llama-3-8b', tokenize: charTokens, log: (l) => lines.push(l) });
    assert.match(sim.url, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    assert.equal(sim.model, 'llama-3-8b-simulator');
    assert.match(lines[0]!, /SIMULATOR/);
    const models = (await (await fetch(`${sim.url}/models`)).json()) as { data: Array<{ id: string }> };
    assert.equal(models.data[0]!.id, 'llama-3-8b-simulator');
  });

  it('a repeated prompt hits the prefix cache: the second request gets its first token much sooner', async () => {
    sim = await start({ prefillMs: (newTokens) => newTokens * 0.5, tpotMs: () => 1 });
    const prompt = 'p'.repeat(300);
    const first = await ask(sim, prompt);
    const second = await ask(sim, prompt);
    assert.ok(first.ttftMs! >= 140, `first ${first.ttftMs}`);
    assert.ok(second.ttftMs! < first.ttftMs! / 3, `second ${second.ttftMs} vs ${first.ttftMs}`);
    // A different start invalidates every later block, even though the rest is identical.
    const changedStart = await ask(sim, `q${prompt.slice(1)}`);
    assert.ok(changedStart.ttftMs! >= 140, `changed start ${changedStart.ttftMs}`);
  });

  it('simultaneous prefills queue one after another', async () => {
    sim = await start({ prefillMs: () => 80, tpotMs: () => 1 });
    const results = await Promise.all(['a', 'b', 'c'].map((p) => ask(sim!, p.repeat(40), 2)));
    const ttfts = results.map((r) => r.ttftMs!).sort((x, y) => x - y);
    // Timers never fire early, so these lower bounds hold on any load: the last request waited for
    // two whole prefills after the first one's (parallel prefills would end together).
    assert.ok(ttfts[2]! >= 230, `${ttfts}`);
    assert.ok(ttfts[2]! - ttfts[0]! >= 150, `${ttfts}`);
  });

  it('paces decoding at the model TPOT and sends the usage trailer with cached tokens', async () => {
    sim = await start({ prefillMs: () => 1, tpotMs: (_ctx, batch) => 10 * batch });
    const r = await ask(sim, 'hello', 6);
    assert.equal(r.outputTokens, 6);
    // Timers never fire early, so the last token comes at least 1 + 5 × 10 ms after the request on any load; the mean
    // TPOT alone can read under 10 ms when the first token's read was late (it failed at 8.6 ms on a fresh clone).
    assert.ok(r.e2eMs! >= 51, `e2e ${r.e2eMs}`);
    assert.ok(r.tpotMs! < 25, `tpot ${r.tpotMs}`);
    const body = JSON.stringify({
      model: 'x',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 2,
      messages: [{ role: 'user', content: 'hello' }],
    });
    const text = await (await fetch(`${sim.url}/chat/completions`, { method: 'POST', body })).text();
    assert.match(
      text,
      /"usage":\{"prompt_tokens":13,"completion_tokens":2,"total_tokens":15,"prompt_tokens_details":\{"cached_tokens":0\}\}/,
    );
    assert.match(text, /"model":"prompt-lens-simulator"/);
    assert.ok(text.endsWith('data: [DONE]\n\n'));
  });

  it('answers non-streaming chat and completions requests with the whole text and usage', async () => {
    sim = await start({ prefillMs: () => 0, tpotMs: () => 0 });
    const post = async (path: string, body: unknown) =>
      (await fetch(`${sim!.url}${path}`, { method: 'POST', body: JSON.stringify(body) })).json();
    const chat = (await post('/chat/completions', { messages: [{ role: 'user', content: 'hi' }], max_tokens: 3 })) as {
      choices: Array<{ message: { content: string } }>;
      usage: { completion_tokens: number };
    };
    assert.equal(chat.choices[0]!.message.content, ' simulated output token');
    assert.equal(chat.usage.completion_tokens, 3);
    const completion = (await post('/completions', { prompt: 'hi' })) as {
      choices: Array<{ text: string }>;
      usage: { completion_tokens: number };
    };
    assert.equal(completion.usage.completion_tokens, 4, 'defaultMaxTokens applies without max_tokens');
    assert.equal(completion.choices[0]!.text.length > 0, true);
  });

  it('rejects bad requests with an OpenAI-style error naming the field, and unknown routes with 404', async () => {
    sim = await start({ prefillMs: () => 0, tpotMs: () => 0 });
    const bad = await fetch(`${sim.url}/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ messages: [], max_tokens: -1 }),
    });
    assert.equal(bad.status, 400);
    const { error } = (await bad.json()) as { error: { message: string } };
    assert.match(error.message, /messages: must hold at least one message/);
    assert.match(error.message, /max_tokens/);
    assert.equal((await fetch(`${sim.url}/embeddings`, { method: 'POST', body: '{}' })).status, 404);
    assert.equal((await fetch(`${sim.url}/completions`, { method: 'POST', body: 'not json' })).status, 400);
  });
});

describe('prefix cache', () => {
  it('counts whole matching leading blocks only, chained so a block matches only after matching blocks', () => {
    const cache = new PrefixCache(4, 100);
    cache.insert([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.equal(cache.lookup([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]), 8);
    assert.equal(cache.lookup([1, 2, 3, 4, 5, 6, 7, 0]), 4);
    assert.equal(cache.lookup([5, 6, 7, 8]), 0, 'block 2 alone is not a cached prefix');
    assert.equal(cache.lookup([1, 2, 3]), 0, 'partial blocks are never cached');
  });

  it('evicts the least recently used blocks beyond its capacity', () => {
    const cache = new PrefixCache(2, 2);
    cache.insert([1, 1, 2, 2]);
    cache.insert([3, 3]);
    assert.equal(cache.lookup([3, 3]), 2);
    assert.equal(cache.lookup([1, 1, 2, 2]), 0, 'the oldest block went first, breaking the chain');
  });
});
