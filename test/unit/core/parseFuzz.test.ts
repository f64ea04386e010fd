import assert from 'node:assert/strict';
import fc from 'fast-check';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import type { ParsedPrompt, SourceRange } from '../../../src/core/prompt/types';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { fuzzParams } from '../helpers/fuzz';

// The syntax each format reacts to, plus text that breaks naive code: lone surrogates, NUL, BOM,
// CR-only line ends, RTL and zero-width characters, special-token strings, YAML anchors and tags.
const PIECES = [
  '---',
  '\n',
  '\r\n',
  '\r',
  ' ',
  '  ',
  '\t',
  '\uFEFF',
  '\u0000',
  '\uD800',
  '\uDC00',
  '😀',
  '\u202E',
  '\u200B',
  'مرحبا',
  'system:',
  'user:',
  'assistant:',
  '# user',
  '## System',
  'model: gpt-4o',
  'model:',
  'sample:',
  '  name: x',
  'messages:',
  '- role: user',
  '- role: bogus',
  '  content: hi',
  'content:',
  '|',
  '>-',
  'testData:',
  '  - name: v',
  '&a [1]',
  '*a',
  '!!js/function',
  '? ',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  ',',
  ':',
  '{"messages":[',
  '{"role":"user","content":"hi"}',
  '{"type":"image_url"}',
  'null',
  '{{',
  '}}',
  '{{name}}',
  '{{{raw}}}',
  '{%',
  '%}',
  '{% if x %}',
  '<|endoftext|>',
  '<|im_start|>',
  'word',
  '123',
];
const hostileText = fc.oneof(
  fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 200 }),
);
const FILES = ['a.prompt', 'a.prompty', 'a.prompt.yml', 'a.prompt.md', 'a.json'];
const o200k = getTokenizer('o200k_base');

function assertWithin(range: SourceRange, text: string, what: string): void {
  assert.ok(Number.isInteger(range.start) && Number.isInteger(range.end), `${what}: ${JSON.stringify(range)}`);
  assert.ok(
    range.start >= 0 && range.start <= range.end && range.end <= text.length,
    `${what}: ${JSON.stringify(range)} outside 0..${text.length}`,
  );
}

function assertWellFormed(parsed: ParsedPrompt, text: string): void {
  parsed.messages.forEach((m, i) => assertWithin(m.range, text, `messages[${i}]`));
  parsed.variables.forEach((v, i) => assertWithin(v.range, text, `variables[${i}] ${v.name}`));
  parsed.errors.forEach((e, i) => {
    assertWithin(e.range, text, `errors[${i}] ${e.message}`);
    assert.ok(e.message.length > 0);
  });
}

describe('prompt parsers (fuzz, fixed seed)', () => {
  for (const file of FILES) {
    it(`${file}: never throws; every range lies within the text; counts are whole numbers`, () => {
      fc.assert(
        fc.property(hostileText, (text) => {
          const parsed = parsePrompt(file, text);
          assertWellFormed(parsed, text);
          const count = countPrompt(parsed, o200k);
          assert.ok(Number.isInteger(count.inputTokens) && count.inputTokens >= 0);
        }),
        fuzzParams(20261130, 150),
      );
    });
  }

  it('a.json: any well-formed chat request parses to its messages, each range holding its content', () => {
    const role = fc.constantFrom('system', 'user', 'assistant');
    const message = fc.record({ role, content: fc.string({ unit: 'grapheme', maxLength: 40 }) });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), fc.boolean(), (messages, bare) => {
        const text = JSON.stringify(bare ? messages : { messages }, null, bare ? 0 : 2);
        const parsed = parsePrompt('a.json', text);
        assert.deepEqual(parsed.errors, []);
        assert.deepEqual(
          parsed.messages.map((m) => ({ role: m.role, content: m.text })),
          messages.map((m) => ({ ...m })),
        );
        parsed.messages.forEach((m, i) =>
          assert.ok(text.slice(m.range.start, m.range.end).includes(JSON.stringify(messages[i]?.content))),
        );
      }),
      fuzzParams(7, 150),
    );
  });

  it('a.prompt.yml: messages written as YAML parse back with their roles and text', () => {
    const role = fc.constantFrom('system', 'user', 'assistant');
    const content = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 });
    fc.assert(
      fc.property(fc.array(fc.record({ role, content }), { minLength: 1, maxLength: 6 }), (messages) => {
        const text = `messages:\n${messages.map((m) => `  - role: ${m.role}\n    content: ${JSON.stringify(m.content)}`).join('\n')}\n`;
        const parsed = parsePrompt('a.prompt.yml', text);
        assert.deepEqual(
          parsed.errors.filter((e) => e.severity !== 'warning'),
          [],
        );
        assert.deepEqual(
          parsed.messages.map((m) => ({ role: m.role, content: m.text })),
          messages.map((m) => ({ ...m })),
        );
      }),
      fuzzParams(8, 100),
    );
  });
});
