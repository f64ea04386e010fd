import assert from 'node:assert/strict';
import { compactVocabulary, type TokenizerJson } from '../../../src/core/tokenize/vocabulary';
import type { Tokenizer } from '../../../src/core/tokenize/types';
import { TINY_SP_BYTE, TINY_SPECIALS, TINY_TOKENIZERS } from '../helpers/tinyVocabularies';

/**
 * The BPE engines on small hand-made vocabularies (test/unit/helpers/tinyVocabularies.ts), where every merge can be
 * worked out by hand: lowest rank first, leftmost of equals, both merge loops (a linear scan up to 48 bytes or 32
 * symbols, a heap above), bytes inside a character, lone surrogates, a leading BOM, byte fallback, the pre-splits.
 * The shipped vocabularies are checked against their references in tokenizeUnits.test.ts and the reference suites.
 */

/** ids, and that count, countBase and the chunks' counts agree with them. */
function ids(tokenizer: Tokenizer, text: string): number[] {
  const encoded = tokenizer.encode(text);
  assert.equal(tokenizer.count(text), encoded.length, `count of ${JSON.stringify(text)}`);
  assert.equal(tokenizer.countBase(text), encoded.length, `base count of ${JSON.stringify(text)}`);
  const chunks = tokenizer.countChunks(text, Infinity);
  assert.equal(
    chunks.reduce((n, c) => n + c.tokens, 0),
    encoded.length,
    `chunk counts of ${JSON.stringify(text)}`,
  );
  return encoded;
}

const a = 97;
const b = 98;
const c = 99;
const x = 120;

describe('byte-level BPE (tiktoken-style) on a hand-made vocabulary', () => {
  // Ranks: bytes 0–255, then ab 256, abab 257, bc 258, U+FFFD 259, [A9 21] 260, "\uFEFFab" 261, xab 262.
  const bpe = () => TINY_TOKENIZERS.bpe();

  it('takes a piece that is a token whole, and counts nothing in empty text', () => {
    assert.deepEqual(ids(bpe(), 'abab'), [257]);
    assert.deepEqual(ids(bpe(), 'a'), [a]);
    assert.deepEqual(ids(bpe(), ''), []);
    assert.equal(bpe().count(''), 0);
  });

  it('merges the lowest rank first: abc is ab + c (ab 256 before bc 258), not a + bc', () => {
    assert.deepEqual(ids(bpe(), 'abc'), [256, c]);
  });

  it('merges the leftmost of equal ranks: ababab is abab + ab', () => {
    assert.deepEqual(ids(bpe(), 'ababab'), [257, 256]);
  });

  it('merges the last pair, and re-ranks the pair before a merge: xab is ab, then x + ab', () => {
    assert.deepEqual(ids(bpe(), 'xab'), [262]);
    assert.deepEqual(ids(bpe(), 'xabc'), [262, c]);
    assert.deepEqual(ids(bpe(), 'bx'), [b, x]);
  });

  it('merges pieces over 48 bytes (the heap) in the same order', () => {
    // 25 × ab: every ab first, then abab from the left; the 25th ab is left over.
    assert.deepEqual(ids(bpe(), 'ab'.repeat(25)), [...Array(12).fill(257), 256]);
    assert.deepEqual(ids(bpe(), 'abc'.repeat(17)), Array.from({ length: 17 }, () => [256, c]).flat());
    // 23 × ab, then xab: ab everywhere (rank 256), abab from the left (257), then x + ab (262).
    assert.deepEqual(ids(bpe(), 'ab'.repeat(23) + 'xab'), [...Array(11).fill(257), 256, 262]);
    assert.deepEqual(ids(bpe(), 'x' + 'ab'.repeat(24)), [x, ...Array(12).fill(257)]);
    assert.deepEqual(ids(bpe(), 'b'.repeat(49)), Array(49).fill(b));
    // Longer runs, where the heap's order among many entries decides: ab (256) always before bc (258).
    assert.deepEqual(ids(bpe(), 'abc'.repeat(22)), Array.from({ length: 22 }, () => [256, c]).flat());
    assert.deepEqual(ids(bpe(), 'ab'.repeat(34)), Array(17).fill(257));
  });

  it('merges bytes inside a character by their bytes: é! is C3 + [A9 21], é alone its two bytes', () => {
    assert.deepEqual(ids(bpe(), 'é!'), [0xc3, 260]);
    assert.deepEqual(ids(bpe(), 'é'), [0xc3, 0xa9]);
    assert.deepEqual(ids(bpe(), 'é!'.repeat(17)), Array.from({ length: 17 }, () => [0xc3, 260]).flat());
  });

  it('finds tokens after a four-byte character (two UTF-16 units) and a three-byte one', () => {
    assert.deepEqual(ids(bpe(), '\u{1F600}ab'), [0xf0, 0x9f, 0x98, 0x80, 256]);
    assert.deepEqual(ids(bpe(), '\u{1F600}'.repeat(12) + 'ab'), [
      ...Array(12).fill([0xf0, 0x9f, 0x98, 0x80]).flat(),
      256,
    ]);
    assert.deepEqual(ids(bpe(), 'é'.repeat(24) + 'ab'), [...Array(24).fill([0xc3, 0xa9]).flat(), 256]);
  });

  it('keeps a leading BOM: "\\uFEFFab" is its token, "\\uFEFFabab" the BOM’s bytes and abab', () => {
    assert.deepEqual(ids(bpe(), '\uFEFFab'), [261]);
    assert.deepEqual(ids(bpe(), '\uFEFFabab'), [0xef, 0xbb, 0xbf, 257]);
  });

  it('reads a lone surrogate as U+FFFD, as tiktoken receives it in UTF-8', () => {
    assert.deepEqual(ids(bpe(), 'a\uD800b'), [a, 259, b]);
    assert.deepEqual(ids(bpe(), '\uDFFF'), [259]);
  });

  it('makes the text between two matches of the split pattern a piece, and the text after the last', () => {
    assert.deepEqual(ids(bpe(), 'ab--cd'), [256, 45, 45, c, 100]);
    assert.deepEqual(ids(bpe(), 'ab--'), [256, 45, 45]);
    assert.deepEqual(ids(bpe(), '--ab'), [45, 45, 256]);
  });

  it('gives the same ids when the merges are no longer cached', () => {
    const text = 'ababab abc xab';
    const first = bpe().encode(text);
    assert.deepEqual(bpe().encode(text), first);
    bpe().clearCache?.();
    assert.deepEqual(bpe().encode(text), first);
    assert.deepEqual(first, [257, 256, 32, 256, c, 32, 262]);
  });

  it('refuses a split pattern that matches empty text', () => {
    assert.throws(() => TINY_TOKENIZERS.emptyMatch().count('b'), /matched empty text/);
  });
});

describe('SentencePiece-style BPE on a hand-made vocabulary', () => {
  // Ranks: ab 0, abab 1, bc 2, ▁▁ 3, ▁x 4, >▁ 5, xab 6, a 7, b 8, c 9, x 10, ▁ 11, > 12, < 13, / 14, <0x00>… 15….
  const sp = () => TINY_TOKENIZERS.sentencePiece();
  const SPACE = 11;

  it('takes a token whole, merges lowest rank first and leftmost of equals', () => {
    assert.deepEqual(ids(sp(), 'abab'), [1]);
    assert.deepEqual(ids(sp(), 'abc'), [0, 9]);
    assert.deepEqual(ids(sp(), 'ababab'), [1, 0]);
    assert.deepEqual(ids(sp(), 'xab'), [6]);
    assert.deepEqual(ids(sp(), 'xabc'), [6, 9]);
    assert.deepEqual(ids(sp(), ''), []);
  });

  it('merges pieces over 32 symbols (the heap) in the same order', () => {
    assert.deepEqual(ids(sp(), 'ab'.repeat(17)), [...Array(8).fill(1), 0]);
    assert.deepEqual(ids(sp(), 'abc'.repeat(11)), Array.from({ length: 11 }, () => [0, 9]).flat());
    // 15 × ab, then xabc: ab everywhere, abab from the left, then x + ab; c stays.
    assert.deepEqual(ids(sp(), 'ab'.repeat(15) + 'xabc'), [...Array(7).fill(1), 0, 6, 9]);
    assert.deepEqual(ids(sp(), 'c'.repeat(33)), Array(33).fill(9));
    // The first pair (>▁, 5) ranks above the second (▁▁, 3), which merges first: > + ▁▁, then the c's.
    assert.deepEqual(ids(sp(), '>  ' + 'c'.repeat(31)), [12, 3, ...Array(31).fill(9)]);
  });

  it('turns spaces into ▁ and cuts before a ▁ that follows anything but ▁ (and >)', () => {
    assert.deepEqual(ids(sp(), 'a x'), [7, 4]);
    assert.deepEqual(ids(sp(), 'a b'), [7, SPACE, 8]);
    // "a▁▁x": cut after a only; ▁▁ (3) merges before ▁x (4).
    assert.deepEqual(ids(sp(), 'a  x'), [7, 3, 10]);
    // "x▁x▁x": three pieces.
    assert.deepEqual(ids(sp(), 'x x x'), [10, 4, 4]);
    // '>' joins a following ▁ ('>▁' is a token), so ">▁</" is one piece: >▁ + < + /.
    assert.deepEqual(ids(sp(), '> </'), [5, 13, 14]);
    assert.deepEqual(ids(sp(), ' x'), [4]);
  });

  it('falls back to UTF-8 byte tokens for characters it does not know, one symbol per code point', () => {
    assert.deepEqual(ids(sp(), 'é'), [TINY_SP_BYTE(0xc3), TINY_SP_BYTE(0xa9)]);
    assert.deepEqual(ids(sp(), 'aé'), [7, TINY_SP_BYTE(0xc3), TINY_SP_BYTE(0xa9)]);
    assert.deepEqual(ids(sp(), '\u{1F600}a'), [0xf0, 0x9f, 0x98, 0x80].map(TINY_SP_BYTE).concat(7));
    assert.deepEqual(ids(sp(), '\uFFFFa'), [0xef, 0xbf, 0xbf].map(TINY_SP_BYTE).concat(7));
    assert.deepEqual(
      ids(sp(), 'é'.repeat(33)),
      Array.from({ length: 33 }, () => [TINY_SP_BYTE(0xc3), TINY_SP_BYTE(0xa9)]).flat(),
    );
  });

  it('prepends ▁ to non-empty text when the model adds a dummy prefix', () => {
    const dummy = TINY_TOKENIZERS.sentencePieceDummy();
    assert.deepEqual(ids(dummy, 'x'), [4]);
    assert.deepEqual(ids(dummy, 'a'), [SPACE, 7]);
    assert.deepEqual(ids(dummy, 'x y'), [4, SPACE, TINY_SP_BYTE(0x79)]);
    assert.deepEqual(ids(dummy, ''), []);
    assert.equal(dummy.count(''), 0);
  });

  it('counts a continuation (text after a special token) with no ▁ prepended, when the model prepends one', () => {
    const dummy = TINY_TOKENIZERS.sentencePieceDummy();
    // "a" alone is ▁ + a; continuing, a. "x y" continuing is x, ▁y → x + ▁ + y's byte.
    assert.equal(dummy.countContinuation?.('a'), 1);
    assert.equal(dummy.countContinuation?.('x y'), 3);
    assert.equal(dummy.countContinuation?.(' x'), 1);
    assert.equal(sp().countContinuation, undefined);
  });

  it('is exact, keeps the whole text as one chunk, and lists the vocabulary’s specials', () => {
    assert.equal(sp().exact, true);
    assert.equal(sp().id, 'gemma3');
    assert.equal(sp().finish(5), 5);
    assert.deepEqual(sp().countChunks('a b x', 1), [{ length: 5, tokens: 4 }]);
    assert.deepEqual(sp().countChunks('', 1), []);
    assert.deepEqual(sp().specials, TINY_SPECIALS);
  });
});

describe('the byte-level families on a hand-made vocabulary (bytes 0–255, then ab, Ġa, é, 12, 123, Ā, ä¸, 一, 一一, a一)', () => {
  const qwen2 = () => TINY_TOKENIZERS.qwen2();
  const deepseek = () => TINY_TOKENIZERS.deepseek();

  it('qwen2 normalises to NFC before every count and encoding: e + U+0301 is é, one token', () => {
    assert.deepEqual(ids(qwen2(), 'e\u0301'), [258]);
    assert.deepEqual(qwen2().countChunks('e\u0301', 1), [{ length: 2, tokens: 1 }]);
    assert.deepEqual(qwen2().countChunks('', 1), []);
  });

  it('qwen2 splits digits one by one and joins a space to the word after it', () => {
    assert.deepEqual(ids(qwen2(), '123'), [0x31, 0x32, 0x33]);
    assert.deepEqual(ids(qwen2(), ' ab'), [0x20, 256]);
    assert.deepEqual(ids(qwen2(), 'a一'), [265]);
    assert.deepEqual(ids(qwen2(), '一一一'), [264, 263]);
  });

  it('deepseek-v3 cuts digit groups of up to three, then CJK runs, then words, each from the pieces before', () => {
    assert.deepEqual(ids(deepseek(), '12345'), [260, 0x34, 0x35]);
    assert.deepEqual(ids(deepseek(), 'a一'), [a, 263]);
    assert.deepEqual(ids(deepseek(), '一一一'), [264, 263]);
    assert.deepEqual(ids(deepseek(), 'x一12'), [x, 263, 259]);
    // No normalisation: e + U+0301 stays two characters, three bytes, no token.
    assert.deepEqual(ids(deepseek(), 'e\u0301'), [0x65, 0xcc, 0x81]);
    assert.deepEqual(deepseek().countChunks('12345', 1), [{ length: 5, tokens: 3 }]);
    assert.deepEqual(deepseek().countChunks('', 1), []);
  });

  it('both are exact, keep their ids, and list the vocabulary’s specials', () => {
    for (const [tokenizer, id] of [
      [qwen2(), 'qwen2'],
      [deepseek(), 'deepseek-v3'],
    ] as const) {
      assert.equal(tokenizer.id, id);
      assert.equal(tokenizer.exact, true);
      assert.equal(tokenizer.finish(3), 3);
      assert.deepEqual(tokenizer.specials, TINY_SPECIALS);
    }
  });
});

describe('compactVocabulary', () => {
  it('keeps a compact vocabulary as it is', () => {
    const compact = { tokens: ['a'], specials: ['<s>'] };
    assert.equal(compactVocabulary(compact), compact);
  });

  it('byte-level: tokens by id (a gap left empty) and the added tokens as specials', () => {
    const json: TokenizerJson = {
      model: { vocab: { b: 1, a: 0, ab: 3 } },
      added_tokens: [{ content: '<|end|>' }],
    };
    assert.deepEqual(compactVocabulary(json), { tokens: ['a', 'b', '', 'ab'], specials: ['<|end|>'] });
    assert.deepEqual(compactVocabulary({ model: { vocab: { a: 0 } } }), { tokens: ['a'], specials: [] });
  });

  it('byte fallback: merges’ results in merge order (once), then unmerged single characters, then byte tokens', () => {
    const json: TokenizerJson = {
      model: {
        byte_fallback: true,
        vocab: {
          '<unk>': 0,
          '<0x41>': 1,
          a: 2,
          b: 3,
          c: 4,
          '▁': 5,
          ab: 6,
          abc: 7,
          '▁a': 8,
          é: 9,
          xyz: 10,
          '<0xZZ>': 11,
          '\u{1F600}': 12,
        },
        merges: ['a b', ['ab', 'c'], '▁ a', 'a b'],
      },
      added_tokens: [{ content: '<unk>' }],
    };
    assert.deepEqual(compactVocabulary(json), {
      tokens: ['ab', 'abc', '▁a', 'a', 'b', 'c', '▁', 'é', '\u{1F600}', '<0x41>'],
      specials: ['<unk>'],
    });
  });
});
