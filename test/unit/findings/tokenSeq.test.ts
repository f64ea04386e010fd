import assert from 'node:assert/strict';
import { commonPrefix, compareTokens, hashTokens, realign } from '../../../src/core/findings/tokenSeq';

const seq = (...ids: number[]) => Int32Array.from(ids);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('token sequences', () => {
  it('commonPrefix: the length of the common start, at most the shorter length', () => {
    assert.equal(commonPrefix(seq(1, 2, 3), seq(1, 2, 4)), 2);
    assert.equal(commonPrefix(seq(1, 2), seq(1, 2, 3)), 2);
    assert.equal(commonPrefix(seq(5), seq(6)), 0);
    assert.equal(commonPrefix(seq(), seq(1)), 0);
  });

  it('compareTokens: by the first differing token, then a proper prefix first', () => {
    assert.equal(compareTokens(seq(1, 2, 3), seq(1, 2, 7)), -4);
    assert.equal(compareTokens(seq(1, 5), seq(1, 2, 9)), 3);
    assert.equal(compareTokens(seq(1, 2), seq(1, 2, 3)), -1);
    assert.equal(compareTokens(seq(1, 2, 3, 4), seq(1, 2)), 2);
    assert.equal(compareTokens(seq(4, 4), seq(4, 4)), 0);
  });

  it('hashTokens: the range length and FNV-1a of exactly the tokens in the range', () => {
    assert.equal(hashTokens(seq(9, 9), 1, 1), `0:${(0x811c9dc5).toString(36)}`);
    const h = hashTokens(seq(9, 1, 2, 7), 1, 3);
    assert.match(h, /^2:[0-9a-z]+$/);
    assert.equal(h, hashTokens(seq(1, 2, 8), 0, 2), 'tokens outside the range do not count');
    assert.notEqual(h, hashTokens(seq(2, 1), 0, 2));
    assert.notEqual(h, hashTokens(seq(1, 3), 0, 2));
    // FNV-1a by hand for the single token 1: (0x811c9dc5 ^ 1) × 0x01000193 mod 2³².
    assert.equal(hashTokens(seq(1), 0, 1), `1:${(Math.imul(0x811c9dc5 ^ 1, 0x01000193) >>> 0).toString(36)}`);
  });
});

describe('realign after the first difference', () => {
  const d = 5;

  it('an inserted token: skip it in the longer sequence and match the rest', () => {
    const a = seq(...range(0, 5), ...range(10, 20));
    const b = seq(...range(0, 5), 99, ...range(10, 20));
    assert.deepEqual(realign(a, b, d, 4), { skipA: 0, skipB: 1, matched: 10 });
  });

  it('a deleted token: skip it in the first sequence', () => {
    const a = seq(...range(0, 5), 99, ...range(10, 20));
    const b = seq(...range(0, 5), ...range(10, 20));
    assert.deepEqual(realign(a, b, d, 4), { skipA: 1, skipB: 0, matched: 10 });
  });

  it('a replacement as long as the gap on both sides is found; a longer one is not', () => {
    const a = seq(...range(0, 5), 100, 101, ...range(10, 20));
    const b = seq(...range(0, 5), 200, 201, ...range(10, 20));
    assert.deepEqual(realign(a, b, d, 2), { skipA: 2, skipB: 2, matched: 10 });
    assert.equal(realign(a, b, d, 1), undefined);
  });

  it('a short match is not an anchor unless it runs to the end of a sequence', () => {
    // Skipping 99 in b matches 10, 11, 12 and then differs: not an anchor. The real realignment skips
    // 10, 11, 12 in a and 99, 10, 11, 12, 98 in b.
    const a = seq(...range(0, 5), 10, 11, 12, 13, ...range(14, 26));
    const b = seq(...range(0, 5), 99, 10, 11, 12, 98, 13, ...range(14, 26));
    assert.deepEqual(realign(a, b, d, 5), { skipA: 3, skipB: 5, matched: 13 });
    // Only two tokens are left after the skip, and they match: that is enough.
    assert.deepEqual(realign(seq(...range(0, 5), 9, 5, 6), seq(...range(0, 5), 5, 6), d, 4), {
      skipA: 1,
      skipB: 0,
      matched: 2,
    });
    // Matching up to the end of the shorter one is enough; the longer one's rest may go on.
    assert.deepEqual(realign(seq(...range(0, 5), 77, ...range(10, 20)), seq(...range(0, 5), ...range(10, 22)), d, 4), {
      skipA: 1,
      skipB: 0,
      matched: 10,
    });
  });

  it('an empty rest never matches, and skips never go before the difference', () => {
    assert.equal(realign(seq(...range(0, 5), 9), seq(...range(0, 5), 8, 1, 2, 3), d, 2), undefined);
    // All zeros but one token each: skipping backwards (a negative skip) would "match" at once.
    const zeros = (n: number, at: number, v: number) => seq(...Array.from({ length: n }, (_, i) => (i === at ? v : 0)));
    assert.deepEqual(realign(zeros(20, 5, 1), zeros(20, 5, 2), d, 4), { skipA: 1, skipB: 1, matched: 14 });
    assert.deepEqual(realign(zeros(20, 5, 0), zeros(20, 5, 1), d, 4), { skipA: 0, skipB: 1, matched: 14 });
    // Here skipping 2 in a and going back 1 in b would line up 0, 2, 0… at once; the answer skips 3 in a.
    const a = seq(0, 0, 0, 0, 0, 1, 9, 0, 2, ...Array(12).fill(0));
    const b = seq(0, 0, 0, 0, 0, 2, ...Array(12).fill(0));
    assert.deepEqual(realign(a, b, d, 4), { skipA: 3, skipB: 0, matched: 13 });
  });
});
