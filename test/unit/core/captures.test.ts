import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { countBasis } from '../../../src/core/chat/templateText';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { tokenizerFor } from '../../../src/core/tokenize/models';
import { getTokenizer, tokenizerInfo } from '../../../src/core/tokenize/registry';
import { correctCount, updateCorrection } from '../../../src/core/calibrate/tokenCorrection';

// Each fixture is a public capture (cited in its `source`) where both the request and the usage the
// endpoint billed are known; the local count of that exact request must equal the billed count.
const DIR = join(__dirname, '../../fixtures/captures');
interface Capture {
  source: string;
  request: { model: string; messages: unknown[] };
  usage: { prompt_tokens: number };
}
const captures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, capture: JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Capture }));

describe('counts equal what real endpoints billed (public captures)', () => {
  for (const { file, capture } of captures) {
    const tokenizer = getTokenizer(tokenizerFor(capture.request.model));
    it(`${file}: ${capture.request.model} billed ${capture.usage.prompt_tokens}`, () => {
      assert.ok(tokenizer.exact, `${tokenizer.id} must be exact for a billed-count test`);
      // The request as sent (tools and response_format included), less the model the count is given apart.
      const parsed = parsePrompt(file, JSON.stringify({ ...capture.request, model: undefined }));
      const count = countPrompt(parsed, tokenizer, tokenizer, capture.request.model);
      assert.equal(count.inputTokens, capture.usage.prompt_tokens);
      assert.ok(count.exact, (count.approximations ?? []).join('; '));
    });
  }
});

/**
 * TGI hands the chat template an assistant's tool calls as the JSON text of its `tool_calls` (see the fixture's
 * `$comment`), not as `tool_calls`: the billed count is that of `engineMessages`. The request as sent is counted as
 * vLLM renders it (tool_calls handed to the template, arguments parsed), which is not TGI's rendering.
 */
describe('TGI: a tool reply as the engine renders it (public capture)', () => {
  const file = 'engine/tgi-llama-3.1-8b-tool-reply.json';
  const capture = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Capture & { engineMessages: unknown[] };
  const tokenizer = getTokenizer(tokenizerFor(capture.request.model));

  it(`${file}: the messages TGI renders count to the billed ${capture.usage.prompt_tokens}`, () => {
    const parsed = parsePrompt(file, JSON.stringify({ messages: capture.engineMessages }));
    const count = countPrompt(parsed, tokenizer, tokenizer, capture.request.model);
    assert.equal(count.inputTokens, capture.usage.prompt_tokens);
    assert.deepEqual(
      count.messages.map((m) => m.role),
      ['user', 'assistant', 'tool'],
    );
  });

  it(`${file}: the request as sent counts its tool call as vLLM renders it, not as TGI billed it`, () => {
    const parsed = parsePrompt(file, JSON.stringify({ ...capture.request, model: undefined }));
    assert.ok(!parsed.errors.some((e) => /tool call/.test(e.message)), JSON.stringify(parsed.errors));
    const count = countPrompt(parsed, tokenizer, tokenizer, capture.request.model);
    // vLLM hands the template the call with its arguments parsed: Llama 3.1 writes {"name": …, "parameters": {…}},
    // fewer tokens than TGI's doubly encoded JSON text. The count says which engine's rendering it assumed.
    assert.ok(count.inputTokens < capture.usage.prompt_tokens, `${count.inputTokens}`);
    assert.ok(countBasis(count)!.includes('arguments parsed as JSON as vLLM does'));
  });
});

/**
 * Anthropic publishes no tokenizer, so no local count of a Claude request can be exact: the product promises an
 * approximation marked ≈ (o200k_base × 1.2, an assumption it cannot measure offline), and that an endpoint's bills
 * correct it (core/calibrate/tokenCorrection.ts). This capture is tested against exactly that.
 */
describe('Claude: approximate, and corrected by what the endpoint billed (public capture)', () => {
  const file = 'approximate/anthropic-claude-haiku-4.5-strawberry.json';
  const capture = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as {
    request: { model: string; messages: unknown[] };
    usage: { input_tokens: number };
  };
  const billed = capture.usage.input_tokens;
  const count = () => {
    const tokenizer = getTokenizer(tokenizerFor(capture.request.model));
    const parsed = parsePrompt(file, JSON.stringify({ messages: capture.request.messages }));
    return countPrompt(parsed, tokenizer, tokenizer, capture.request.model);
  };

  it(`${file}: the local count is marked approximate, and says why`, () => {
    const local = count();
    assert.equal(local.tokenizer, 'claude');
    assert.equal(local.exact, false);
    assert.match(tokenizerInfo('claude').error ?? '', /no public tokenizer/);
    // Measured, not promised: 12 local tokens for a request billed 19 (−37 %); Anthropic adds tokens of its own
    // per request that no public rule describes — what a correction's offset is for.
    assert.equal(local.inputTokens, 12);
  });

  it(`${file}: the correction fitted on this bill reproduces it (one prompt size: a ratio through the origin)`, () => {
    const local = count();
    const correction = updateCorrection(undefined, {
      tokenizer: local.tokenizer,
      endpoint: { name: 'anthropic', baseUrl: 'https://api.anthropic.com', model: capture.request.model },
      samples: [{ local: local.inputTokens, billed, requests: 1 }],
      date: '2026-12-01',
    })!;
    assert.equal(correction.fit, 'ratio');
    const corrected = correctCount(local, correction);
    assert.equal(corrected.inputTokens, billed);
    assert.equal(corrected.corrected?.requests, 1);
  });
});
