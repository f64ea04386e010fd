import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { countPrompt, promptTokenCounter } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { MAX_NESTING } from '../../../src/core/prompt/yaml';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { estimateFromSamples, SAMPLE_CHARS, SAMPLE_WINDOWS } from '../../../src/core/tokenize/sampled';
import { cpuMs } from '../helpers/cpuTime';
import { largeProse } from '../helpers/hostileFiles';

const o200k = getTokenizer('o200k_base');

describe('limits on hostile text', () => {
  it('a 200,000-letter word (about 30 s of quadratic BPE) is merged exactly without hanging', () => {
    const run = 'a'.repeat(200_000);
    let tokens = 0;
    // A hang guard, not a speed goal (those are in npm run bench): ~0.2 s of CPU here.
    const used = cpuMs(() => (tokens = o200k.count(run)));
    assert.ok(used < 10_000, `${used.toFixed(0)} ms of CPU`);
    // 'aaaaaaaa' is one o200k_base token, and BPE of the whole word lands on it 25,000 times.
    assert.equal(o200k.encode('a'.repeat(8)).length, 1);
    assert.equal(tokens, 25_000);
    assert.equal(o200k.encode(run).length, tokens);
  });

  it('estimateFromSamples is within 3% of the exact count on prose and base64', () => {
    for (const text of [largeProse(1_000_000), randomBytes(300_000).toString('base64')]) {
      assert.ok(text.length > SAMPLE_WINDOWS * SAMPLE_CHARS);
      const exact = o200k.count(text);
      const estimate = estimateFromSamples(text, o200k);
      assert.ok(Math.abs(estimate - exact) / exact < 0.03, `estimate ${estimate}, exact ${exact}`);
    }
  });

  it(`YAML and JSON nested deeper than ${MAX_NESTING} levels are refused before parsing; shallower still parse`, () => {
    const deep = `messages: ${'['.repeat(MAX_NESTING + 1)}${']'.repeat(MAX_NESTING + 1)}`;
    assert.match(parsePrompt('a.prompt.yml', deep).errors[0]?.message ?? '', /nested deeper than 512 levels/);
    assert.match(
      parsePrompt('a.json', '['.repeat(100_000)).errors[0]?.message ?? '',
      /JSON: nested deeper than 512 levels/,
    );
    const shallow = parsePrompt(
      'a.prompt.yml',
      `x: ${'['.repeat(MAX_NESTING)}${']'.repeat(MAX_NESTING)}\nmessages:\n  - role: user\n    content: hi\n`,
    );
    assert.deepEqual(shallow.errors, []);
    assert.equal(shallow.messages[0]?.text, 'hi');
  });
});

describe('compare counts a large prompt once per tokenizer', () => {
  it('model names that share a tokenizer share one count (a 2 MB chat file took 29 s when each name re-counted it)', () => {
    const parsed = parsePrompt('a.prompt', 'Hello there, world.');
    const counter = promptTokenCounter(parsed);
    const gpt4o = counter('gpt-4o');
    assert.equal(counter('gpt-4.1'), gpt4o);
    assert.equal(counter('o200k_base'), gpt4o);
    assert.equal(counter(undefined), gpt4o);
    assert.notEqual(counter('llama-3.1-8b'), gpt4o);
  });

  it('uses counts already made for a tokenizer as they are, and counts the others', () => {
    const parsed = parsePrompt('a.prompt', 'Hello there, world.');
    const llama = countPrompt(parsed, getTokenizer('llama3'));
    const known = { o200k_base: { ...countPrompt(parsed, getTokenizer('o200k_base')), inputTokens: 12345 } };
    const counter = promptTokenCounter(parsed, known);
    assert.equal(counter('gpt-4o').tokens, 12345, 'the known count, not a recount');
    assert.equal(counter('llama-3.1-8b').tokens, llama.inputTokens);
  });
});
