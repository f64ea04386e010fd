import assert from 'node:assert/strict';
import { findDuplicates, jaccard, normaliseChunk, shingles } from '../../../src/core/findings/chunks';

describe('retrieved chunks: normalising and shingles', () => {
  it('normalises case, tags, punctuation and whitespace runs to single spaces, trimmed', () => {
    assert.equal(normaliseChunk('  Hello,  <b>World</b>!!'), 'hello world');
    assert.equal(normaliseChunk('Alpha<div class="x">Beta'), 'alpha beta');
    assert.equal(normaliseChunk('a, b; c'), 'a b c');
    assert.equal(normaliseChunk('Ünïcode 42 日本語'), 'ünïcode 42 日本語');
    assert.equal(normaliseChunk('a >b> c'), 'a b c', 'a lone ">" is punctuation');
  });

  it('shingles are runs of three words; shorter text is one shingle; nothing for empty text', () => {
    assert.deepEqual([...shingles('a b c d e')], ['a b c', 'b c d', 'c d e']);
    assert.deepEqual([...shingles('a b c')], ['a b c']);
    assert.deepEqual([...shingles('a b')], ['a b']);
    assert.deepEqual([...shingles('')], []);
  });

  it('jaccard similarity: shared over all; two empty sets are alike, one empty set is not', () => {
    assert.equal(jaccard(new Set(), new Set()), 1);
    assert.equal(jaccard(new Set(), new Set(['x'])), 0);
    assert.equal(jaccard(new Set(['x']), new Set()), 0);
    assert.equal(jaccard(new Set(['x', 'y', 'z']), new Set(['x'])), 1 / 3);
    assert.equal(jaccard(new Set(['x']), new Set(['x', 'y', 'z'])), 1 / 3);
    assert.equal(jaccard(new Set(['x', 'y']), new Set(['y', 'z'])), 1 / 3);
  });
});

describe('finding duplicate chunks', () => {
  it('exact repeats after normalising pair with the first of them', () => {
    assert.deepEqual(
      findDuplicates(['Alpha beta gamma delta', 'x y z w', 'ALPHA, beta gamma delta!', 'alpha beta gamma delta'], 0.8),
      [
        { later: 2, earlier: 0, similarity: 1 },
        { later: 3, earlier: 0, similarity: 1 },
      ],
    );
    // Chunks with no words at all are repeats of the first such chunk.
    assert.deepEqual(findDuplicates(['!!', 'a b c', '??', '...'], 0.8), [
      { later: 2, earlier: 0, similarity: 1 },
      { later: 3, earlier: 0, similarity: 1 },
    ]);
  });

  it('near repeats: at the threshold or above, against the closest earlier chunk, the first of equals', () => {
    // 'a b c d' vs 'a b c d e f': 2 of 4 shingles shared, 0.5.
    assert.deepEqual(findDuplicates(['a b c d', 'a b c d e f'], 0.5), [{ later: 1, earlier: 0, similarity: 0.5 }]);
    assert.deepEqual(findDuplicates(['a b c d', 'a b c d e f'], 0.51), []);
    // Chunk 2 is 2/3 like chunk 0 and 3/4 like chunk 1: it pairs with chunk 1 (chunk 1 is 2/4 like chunk 0).
    const closest = findDuplicates(['p q r s', 'p q r s t u', 'p q r s t'], 0.5);
    assert.deepEqual(closest.at(-1), { later: 2, earlier: 1, similarity: 0.75 });
    // 'x x x x' and 'x x x' have the same single shingle (similarity 1) but differ as text: the third chunk,
    // an exact repeat of the second, still pairs with the first.
    assert.deepEqual(findDuplicates(['x x x x', 'x x x', 'x x x'], 0.9), [
      { later: 1, earlier: 0, similarity: 1 },
      { later: 2, earlier: 0, similarity: 1 },
    ]);
  });

  it('of two equally close earlier chunks, the first wins even when it is found first', () => {
    // Chunk 2 shares 2 of 3 shingles with each; chunk 0 is found through "a b c", chunk 1 through "c d e"
    // (both rarer than "b c d"), in that order. Chunks 0 and 1 share 1 of 3: not a pair at 0.6.
    assert.deepEqual(findDuplicates(['a b c d', 'b c d e', 'a b c d e'], 0.6), [
      { later: 2, earlier: 0, similarity: 2 / 3 },
    ]);
  });

  it('a candidate below the threshold is not a pair; a closer one found later replaces a farther one', () => {
    // Chunk 1 is found through "a b c" but is 1/5 like chunk 0.
    assert.deepEqual(findDuplicates(['a b c d e f', 'a b c x'], 0.21), []);
    assert.deepEqual(findDuplicates(['a b c d e f', 'a b c x'], 0.2), [{ later: 1, earlier: 0, similarity: 0.2 }]);
    // Chunk 2 meets chunk 0 (1/3, through "a b c") before chunk 1 (2/3, through "b c d").
    assert.deepEqual(findDuplicates(['a b c', 'b c d e', 'a b c d e'], 0.3), [
      { later: 2, earlier: 1, similarity: 2 / 3 },
    ]);
  });

  it('looks for twins through their rarest shingles, so a shingle every chunk has does not crowd them out', () => {
    // 80 chunks share the shingle "aaa aab aac" (it also sorts first); each has four rare ones. The last chunk
    // differs from chunk 0 in its last word: 4 of 6 shingles shared. Compared only with the 64 latest chunks
    // having the common shingle, it would miss chunk 0.
    const texts = Array.from({ length: 80 }, (_, i) => `aaa aab aac u${i}a u${i}b u${i}c u${i}d`);
    texts.push('aaa aab aac u0a u0b u0c zzz');
    assert.deepEqual(findDuplicates(texts, 0.5), [{ later: 80, earlier: 0, similarity: 4 / 6 }]);
  });
});
