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

/**
 * Google publishes no Gemini tokenizer either: the product promises a count marked ≈ (o200k_base × 1.145 per
 * message, no overhead rule) and the per-endpoint correction from what the endpoint billed. These captures are the
 * Gemini cookbook's saved outputs (seven requests, four models, prompts of 8–17 local tokens); they measure the
 * uncorrected approximation's error on each bill and test the correction against each.
 */
describe('Gemini: approximate, its error measured on public bills, and corrected by them (public captures)', () => {
  const file = 'approximate/gemini-cookbook-counting-tokens.json';
  interface Part {
    text: string;
  }
  interface GeminiCapture {
    id: string;
    model: string;
    request: { systemInstruction?: { parts: Part[] }; contents: { role: 'user' | 'model'; parts: Part[] }[] };
    billed: number;
  }
  const { captures: gemini } = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as { captures: GeminiCapture[] };
  // The Gemini request as chat messages: systemInstruction is the system message, a 'model' turn the assistant's.
  const messages = ({ systemInstruction, contents }: GeminiCapture['request']) => [
    ...(systemInstruction ? [{ role: 'system', content: systemInstruction.parts.map((p) => p.text).join('') }] : []),
    ...contents.map((c) => ({
      role: c.role === 'model' ? 'assistant' : 'user',
      content: c.parts.map((p) => p.text).join(''),
    })),
  ];
  const count = (capture: GeminiCapture) => {
    const tokenizer = getTokenizer(tokenizerFor(capture.model));
    const parsed = parsePrompt(file, JSON.stringify({ messages: messages(capture.request) }));
    return countPrompt(parsed, tokenizer, tokenizer, capture.model);
  };
  // Measured, not promised: the uncorrected local count of each capture, in the fixture's order.
  const LOCAL = [11, 9, 17, 17, 11, 8, 11];

  it(`${file}: every capture counts with the 'gemini' approximation, marked ≈ with its reason`, () => {
    assert.equal(gemini.length, LOCAL.length);
    assert.match(tokenizerInfo('gemini').error ?? '', /no public tokenizer/);
    for (const capture of gemini) {
      const local = count(capture);
      assert.equal(local.tokenizer, 'gemini', capture.id);
      assert.equal(local.exact, false, capture.id);
    }
  });

  it(`${file}: the uncorrected error on each bill is between −20 % and +13 %, and nil over the 2.0/1.0 prompts`, () => {
    const local = gemini.map((c) => count(c).inputTokens);
    assert.deepEqual(local, LOCAL);
    const errors = gemini.map((c, i) => Math.round((100 * (local[i] - c.billed)) / c.billed));
    assert.deepEqual(errors, [10, -10, 0, 13, 10, -20, 0]);
    // The five distinct prompts 1.0 Pro and 2.0 Flash billed (the first six captures less 2.0's repeat of the fox).
    const distinct = [0, 1, 2, 3, 5];
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    assert.equal(sum(distinct.map((i) => local[i])), 62);
    assert.equal(sum(distinct.map((i) => gemini[i].billed)), 62);
  });

  it(`${file}: the correction fitted on each bill reproduces it (one prompt size: a ratio through the origin)`, () => {
    for (const capture of gemini) {
      const local = count(capture);
      const correction = updateCorrection(undefined, {
        tokenizer: local.tokenizer,
        endpoint: { name: 'gemini', baseUrl: 'https://generativelanguage.googleapis.com', model: capture.model },
        samples: [{ local: local.inputTokens, billed: capture.billed, requests: 1 }],
        date: '2026-12-02',
      })!;
      assert.equal(correction.fit, 'ratio', capture.id);
      const corrected = correctCount(local, correction);
      assert.equal(corrected.inputTokens, capture.billed, capture.id);
      assert.equal(corrected.corrected?.requests, 1, capture.id);
    }
  });
});
