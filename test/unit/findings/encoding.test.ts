import assert from 'node:assert/strict';
import fc from 'fast-check';
import { charOffsetAfterTokens, TokenMemo, tokensBefore } from '../../../src/core/findings/encoding';
import { chunkLengths } from '../../../src/core/tokenize/boundaries';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { fuzzParams } from '../helpers/fuzz';
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

describe('chunk starts and the chunk memo', () => {
  const o200k = getTokenizer('o200k_base');
  const starts = (t: string) => new TokenMemo(o200k).encode(t).chunkChars;

  it('starts a chunk at the first line start 256 or more characters after the last one', () => {
    // 128-character lines: line starts at 128, 256, …; chunks start every second line.
    const lines = `${'x'.repeat(127)}\n`.repeat(8);
    assert.deepEqual(starts(lines), [0, 256, 512, 768]);
    // 100-character lines; a line that starts with white space or "/" is no split point.
    const text = Array.from({ length: 10 }, (_, i) => (i === 3 ? ' ' : i === 6 ? '/' : 'a') + 'b'.repeat(98)).join(
      '\n',
    );
    assert.deepEqual(starts(text), [0, 400, 700]);
  });

  it('chunk starts: each the first split point 256 or more after the previous; longer stretches cut at safe points', () => {
    const line = fc.tuple(fc.constantFrom('a', ' ', '/', '\t', 'é'), fc.nat(600));
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const text = lines.map(([first, length]) => first + 'b '.repeat(length >> 1)).join('\n');
        const lineStarts = [0];
        for (let i = 0; i < text.length; i++)
          if (text[i] === '\n' && /[^\s/]/.test(text[i + 1] ?? ' ') && i + 1 - lineStarts.at(-1)! >= 256)
            lineStarts.push(i + 1);
        const expected = lineStarts.flatMap((start, k) => {
          const end = lineStarts[k + 1] ?? text.length;
          if (end - start <= 1024) return [start];
          const cuts = [start];
          for (const length of chunkLengths(text, start, end, 256)) cuts.push(cuts.at(-1)! + length);
          return cuts.filter((at) => at < end);
        });
        assert.deepEqual(starts(text), expected);
      }),
      fuzzParams(21, 200, true),
    );
  });

  it('cuts a line longer than 1024 characters at safe points, and no shorter line', () => {
    assert.deepEqual(starts('x'.repeat(1024)), [0]);
    assert.deepEqual(starts('y '.repeat(512)), [0], 'exactly 1,024 characters, with safe points: one chunk');
    assert.ok(starts('y '.repeat(513)).length > 1);
    const head = `${'x'.repeat(299)}\n`;
    // A 1,000-character line after a chunk: not cut.
    assert.deepEqual(starts(head + 'y '.repeat(500)), [0, 300]);
    const long = head + 'word, '.repeat(500);
    const lengths = chunkLengths(long, 300, long.length, 256);
    const expected = [0, 300];
    for (let at = 300, i = 0; i < lengths.length - 1; i++) expected.push((at += lengths[i]!));
    assert.ok(expected.length > 4);
    const encoded = new TokenMemo(o200k).encode(long);
    assert.deepEqual(encoded.chunkChars, expected);
    assert.deepEqual([...encoded.tokens], o200k.encode(long));
  });

  it('keeps the chunks of the last two generations: one in use stays, one unused for two is encoded again', () => {
    const calls: string[] = [];
    const counting = { ...wordTokenizer, encode: (t: string) => (calls.push(t), wordTokenizer.encode(t)) };
    const memo = new TokenMemo(counting, 2);
    // Generations of two: {A, B}, {C, D}, {E, A}: A was dropped with the first; C, used again from the
    // older generation, moves to the newest and outlives {F, G}'s turn.
    for (const t of ['A', 'B', 'C', 'D', 'E', 'A', 'C', 'F', 'G', 'C']) memo.encode(t);
    assert.deepEqual(calls, ['A', 'B', 'C', 'D', 'E', 'A', 'F', 'G']);
  });

  it('a chunk found in the newest generation is used as it is, and stays there', () => {
    const calls: string[] = [];
    const counting = { ...wordTokenizer, encode: (t: string) => (calls.push(t), wordTokenizer.encode(t)) };
    const memo = new TokenMemo(counting, 2);
    // {A, B} (A found again in it), then {C, A}: A comes back from the older generation, B is gone after {C, A}'s turn.
    for (const t of ['A', 'A', 'B', 'C', 'A', 'D', 'B']) memo.encode(t);
    assert.deepEqual(calls, ['A', 'B', 'C', 'D', 'B']);
    assert.deepEqual([...memo.encode('A').tokens], wordTokenizer.encode('A'));
  });

  it('offset lookups remember each answer by the chunk text and the tokens into it', () => {
    const text = 'a b c';
    const encoded = new TokenMemo(wordTokenizer).encode(text);
    const memo = new Map<string, number>();
    // One token is "a" (1 character), two are "a b" (3).
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 1, memo), 1);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 2, memo), 3);
    assert.deepEqual(
      [...memo],
      [
        ['1:a b c', 1],
        ['2:a b c', 3],
      ],
    );
    // A remembered answer is the answer (nothing is encoded again).
    memo.set('1:a b c', 4);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 1, memo), 4);
    // The ends need no lookup and are not remembered.
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 0, memo), 0);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 3, memo), text.length);
    assert.equal(memo.size, 2);
  });

  it('offset lookups start a full memo (65,536 answers) afresh, and keep one short of full', () => {
    const text = 'a b c';
    const encoded = new TokenMemo(wordTokenizer).encode(text);
    const filled = (n: number) => new Map(Array.from({ length: n }, (_, i) => [`x${i}`, i]));
    const full = filled(65_536);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 2, full), 3);
    assert.deepEqual([...full], [['2:a b c', 3]]);
    const almost = filled(65_535);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 2, almost), 3);
    assert.equal(almost.size, 65_536);
    assert.equal(almost.get('x0'), 0);
  });

  it('offset lookups with a memo, in a later chunk: the chunk start plus the offset in the chunk', () => {
    // o200k_base splits this text into chunks at line starts; every second line is the same, so later
    // chunks repeat earlier ones' text and are answered from the memo.
    const line = 'Answer the customer politely.\n';
    const long = line.repeat(40);
    const encoded = new TokenMemo(o200k).encode(long);
    assert.ok(encoded.chunkChars.length >= 3, 'several chunks');
    const memo = new Map<string, number>();
    for (const k of [1, 5, encoded.chunkTokens[1]! + 2, encoded.chunkTokens[2]! + 2, encoded.tokens.length - 1]) {
      const plain = charOffsetAfterTokens(o200k, long, encoded, k);
      assert.equal(charOffsetAfterTokens(o200k, long, encoded, k, memo), plain, `${k} tokens, first ask`);
      assert.equal(charOffsetAfterTokens(o200k, long, encoded, k, memo), plain, `${k} tokens, from the memo`);
      assert.deepEqual(o200k.encode(long.slice(0, plain)), [...encoded.tokens.subarray(0, k)], `prefix of ${k} tokens`);
    }
    // The second and third chunks hold the same text: two tokens into either is one answer.
    assert.equal(
      charOffsetAfterTokens(o200k, long, encoded, encoded.chunkTokens[2]! + 2, memo) - encoded.chunkChars[2]!,
      charOffsetAfterTokens(o200k, long, encoded, encoded.chunkTokens[1]! + 2, memo) - encoded.chunkChars[1]!,
    );
  });

  it('offsets at the ends: no tokens is offset 0, all tokens the whole text (trailing space included)', () => {
    const text = 'a b  ';
    const encoded = new TokenMemo(wordTokenizer).encode(text);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, -1), 0);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 0), 0);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 1), 1);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 2), text.length);
    assert.equal(charOffsetAfterTokens(wordTokenizer, text, encoded, 9), text.length);
  });
});
