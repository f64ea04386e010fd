import assert from 'node:assert/strict';
import fc from 'fast-check';
import { charOffsetAfterTokens, TokenMemo, tokensBefore } from '../../../src/core/findings/encoding';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { wordTokenizer } from './helpers';

// Pieces chosen to stress the pre-tokeniser around line starts: indentation, blank lines,
// punctuation that absorbs newlines, digits, contractions, CJK and emoji.
const PIECES = [
  '\n',
  '\n\n',
  ' \n',
  '\r\n',
  '  ',
  '\t',
  'word',
  ' Word',
  "'s",
  '.',
  '.\n',
  '!!',
  '123',
  '4567',
  '你好',
  '👋🏽',
  '//',
  '<doc>',
  '</doc>',
  '{{x}}',
  '-',
  '_',
  'x'.repeat(40),
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 400 }).map((parts) => parts.join(''));

describe('chunked encoding', () => {
  for (const id of ['o200k_base', 'cl100k_base'] as const) {
    it(`equals whole-text encoding for ${id}, and offsets round-trip`, () => {
      const tokenizer = getTokenizer(id);
      fc.assert(
        fc.property(text, (t) => {
          // Small chunks so that even short texts are split at many line starts.
          const encoded = new TokenMemo(tokenizer).encode(t.repeat(8));
          assert.deepEqual([...encoded.tokens], tokenizer.encode(t.repeat(8)));
        }),
        { seed: 20251130, numRuns: 150 },
      );
      const sample = 'First line of the guide.\nSecond line, with more words.\n  indented\nLast one';
      const long = `${sample}\n`.repeat(60);
      const encoded = new TokenMemo(tokenizer).encode(long);
      assert.ok(encoded.chunkChars.length > 1, 'the long text is split into chunks');
      for (const k of [1, 7, 100, encoded.tokens.length - 3]) {
        const offset = charOffsetAfterTokens(tokenizer, long, encoded, k);
        assert.deepEqual(
          tokenizer.encode(long.slice(0, offset)),
          [...encoded.tokens.subarray(0, k)],
          `prefix of ${k} tokens`,
        );
        assert.equal(tokensBefore(tokenizer, long, encoded, offset), k);
      }
    });
  }

  it('encodes texts whole for tokenizers not known to be safe at line starts', () => {
    const long = 'A line of prose here.\n'.repeat(100);
    const encoded = new TokenMemo(wordTokenizer).encode(long);
    assert.deepEqual(encoded.chunkChars, [0]);
    assert.equal(charOffsetAfterTokens(wordTokenizer, long, encoded, 7), 'A line of prose here.\nA line'.length);
  });
});
