import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import { mixedCorpus } from '../../../bench/corpus';
import { withChatOverhead } from '../../../src/core/tokenize/chatOverhead';
import { tokenizerForModel } from '../../../src/core/tokenize/models';
import { getTokenizer, isTokenizerId, listTokenizers } from '../../../src/core/tokenize/registry';
import { sized } from '../helpers/fuzz';

const EDGE =
  "before <|endoftext|> and <|im_start|>system<|im_end|> <|begin_of_text|>\r\n\r\n 你好，世界 👋🏽🎉 it's 12345 \t\n//x";

/** js-tiktoken's o200k_base and cl100k_base encoders, made by the first test that needs them (seconds each). */
let jsTiktoken: [Tiktoken, Tiktoken] | undefined;

describe('tokenizers', () => {
  const o200k = getTokenizer('o200k_base');
  const cl100k = getTokenizer('cl100k_base');

  it('matches published o200k_base and cl100k_base encodings', () => {
    // Vectors from OpenAI's tiktoken test suite (tests/test_encoding.py).
    assert.deepEqual(cl100k.encode('hello world'), [15339, 1917]);
    assert.deepEqual(o200k.encode('hello world'), [24912, 2375]);
    assert.deepEqual(cl100k.encode('rer'), [38149]);
    assert.deepEqual(cl100k.encode("'rer"), [2351, 81]);
    assert.deepEqual(cl100k.encode('today\n '), [31213, 198, 220]);
  });

  it('gives the same ids as js-tiktoken (a second implementation) on a mixed corpus and edge cases', function () {
    this.timeout(300_000); // js-tiktoken's own encoder is slow; at load 25 this ran past mocha's 20 s
    // js-tiktoken takes ~10 s for 40,000 characters on a loaded machine; the fuzz suite covers tiktoken itself.
    const text = mixedCorpus(sized(10_000, 2_000), 3) + EDGE;
    jsTiktoken ??= [new Tiktoken(o200kRanks), new Tiktoken(cl100kRanks)];
    assert.deepEqual(o200k.encode(text), jsTiktoken[0].encode(text, [], []));
    assert.deepEqual(cl100k.encode(text), jsTiktoken[1].encode(text, [], []));
  });

  it('llama3 matches llama3-tokenizer-js (the real ranks, its own encoder) and known ids', () => {
    const llama3 = getTokenizer('llama3');
    const reference = require('llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs')
      .llama3Tokenizer as { encode(t: string, o: object): number[] };
    const text = mixedCorpus(sized(20_000, 4_000), 5) + '\uFEFF\nbom';
    assert.deepEqual(llama3.encode(text), reference.encode(text, { bos: false, eos: false }));
    // Llama 3 shares cl100k_base's first 100,256 ids: "hello world" is [15339, 1917] in both.
    assert.deepEqual(llama3.encode('hello world'), [15339, 1917]);
    assert.ok(
      llama3.encode('<|begin_of_text|>').every((id) => id < 128_000),
      'special token matched',
    );
  });

  it('counts special-token strings as plain text instead of throwing', () => {
    for (const id of ['o200k_base', 'cl100k_base', 'llama3', 'claude'] as const) {
      const tokenizer = getTokenizer(id);
      assert.ok(tokenizer.count(EDGE) > 20, id);
    }
    assert.ok(!o200k.encode('<|endoftext|>').includes(199999));
  });

  it('counts the exact text: CRLF and trailing whitespace change the count; empty is 0', () => {
    assert.notEqual(o200k.count('a\r\nb\r\n'), o200k.count('a\nb'));
    assert.equal(o200k.count(''), 0);
    assert.equal(getTokenizer('qwen2').count(''), 0);
  });

  it('scales approximations from o200k_base and marks them inexact', () => {
    const text = mixedCorpus(5_000, 9);
    const tekken = getTokenizer('tekken');
    assert.equal(tekken.exact, false);
    assert.equal(tekken.countBase(text), o200k.count(text));
    assert.equal(tekken.count(text), Math.round(o200k.count(text) * 1.15));
    assert.deepEqual(tekken.encode(text), o200k.encode(text), 'positions come from the base encoding');
    assert.ok(
      listTokenizers()
        .filter((t) => !t.exact)
        .every((t) => (t.error ?? '').length > 0),
      'every approximation documents its error',
    );
  });

  it('maps model ids to tokenizers by family', () => {
    const expected: Record<string, string> = {
      'gpt-4o': 'o200k_base',
      'gpt-4o-mini': 'o200k_base',
      'gpt-4.1': 'o200k_base',
      'gpt-5': 'o200k_base',
      'o3-mini': 'o200k_base',
      'gpt-oss-20b': 'o200k_base',
      'gpt-oss-120b': 'o200k_base',
      'gpt-4': 'cl100k_base',
      'gpt-4-turbo': 'cl100k_base',
      'gpt-3.5-turbo': 'cl100k_base',
      'llama-3.1-8b': 'llama3',
      'llama-3.1-70b': 'llama3',
      'llama-3.1-405b': 'llama3',
      'llama-3.3-70b': 'llama3',
      'meta-llama/Llama-3.1-8B-Instruct': 'llama3',
      'mistral-7b': 'mistral',
      'mixtral-8x7b': 'mistral',
      'open-mixtral-8x7b': 'mistral',
      'mistralai/Mistral-7B-Instruct-v0.3': 'mistral',
      'mistral-small-latest': 'tekken',
      'mistral-large-2407': 'tekken',
      'codestral-latest': 'tekken',
      'qwen2.5-7b': 'qwen2',
      'qwen2.5-72b': 'qwen2',
      'qwen3-32b': 'qwen2',
      'qwen3-235b-a22b': 'qwen2',
      'deepseek-v3': 'deepseek-v3',
      'gemma-3-27b': 'gemma3',
      'claude-sonnet-4': 'claude',
      'gemini-2.5-flash': 'gemini',
      'openai/gpt-4.1': 'o200k_base',
      'mystery-1': 'approximate',
    };
    assert.deepEqual(Object.fromEntries(Object.keys(expected).map((m) => [m, tokenizerForModel(m)])), expected);
  });

  it('adds OpenAI chat overhead per encoding: o200k and cl100k 4 per message (role included), + 3 reply priming', () => {
    assert.equal(withChatOverhead(100, 3, 'o200k_base'), 100 + 3 * 4 + 3);
    assert.equal(withChatOverhead(100, 3, 'cl100k_base'), 100 + 3 * 4 + 3);
    assert.equal(withChatOverhead(100, 2, 'llama3'), 100 + 2 * 5 + 5);
    assert.equal(withChatOverhead(100, 0, 'o200k_base'), 100);
  });

  it('knows every tokenizer id the estimation tables name', () => {
    const ids = ['models.json', 'providers.json'].flatMap((file) =>
      [...readFileSync(join(__dirname, '../../../data', file), 'utf8').matchAll(/"tokenizer":\s*"([^"]+)"/g)].map(
        (m) => m[1] as string,
      ),
    );
    assert.ok(ids.length > 10);
    assert.deepEqual(
      ids.filter((id) => !isTokenizerId(id)),
      [],
    );
  });

  it('lists its tokenizers and rejects unknown ids', () => {
    assert.deepEqual(
      listTokenizers()
        .slice(0, 3)
        .map((t) => [t.id, t.exact]),
      [
        ['o200k_base', true],
        ['cl100k_base', true],
        ['llama3', true],
      ],
    );
    assert.equal(isTokenizerId('nope'), false);
    assert.equal(o200k.count('hi there'), 2);
  });
});
