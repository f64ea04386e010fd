import assert from 'node:assert/strict';
import fc from 'fast-check';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { fuzzParams } from '../helpers/fuzz';
import { hardText, SPACES_AND_FORMATS } from '../helpers/hardText';
import { DIFFERENTIAL_PAIRS } from '../helpers/tokenizerReferences';

const SEED = 20261202;

/** Where two id lists first differ, with the text around it, for a readable failure. */
function firstDifference(ours: number[], theirs: number[]): string {
  let i = 0;
  while (i < ours.length && ours[i] === theirs[i]) i++;
  return `first difference at token ${i}: ours ${JSON.stringify(ours.slice(i, i + 6))}, reference ${JSON.stringify(theirs.slice(i, i + 6))}`;
}

describe('exact tokenizers against their references (differential fuzz)', function () {
  this.timeout(120_000);

  for (const pair of DIFFERENTIAL_PAIRS) {
    const ours = getTokenizer(pair.ours);
    const agrees = (text: string): void => {
      const expected = pair.reference().encode(text);
      const ids = ours.encode(text);
      assert.deepEqual(ids, expected, `${JSON.stringify(text)}: ${firstDifference(ids, expected)}`);
      assert.equal(ours.count(text), expected.length, `count of ${JSON.stringify(text)}`);
      const chunks = ours.countChunks(text, 7);
      assert.equal(
        chunks.reduce((n, c) => n + c.tokens, 0),
        expected.length,
        `chunked count of ${JSON.stringify(text)}`,
      );
      assert.equal(
        chunks.reduce((n, c) => n + c.length, 0),
        text.length,
      );
    };

    describe(`${pair.ours} vs ${pair.name}`, () => {
      it('agrees id for id on generated hard text (fuzz)', () => {
        fc.assert(fc.property(hardText(40, pair.unlike?.characters), agrees), fuzzParams(SEED + pair.ours.length, 250));
      });

      it('agrees on every whitespace and format character in every position', () => {
        const skip = new Set(pair.unlike?.characters ?? '');
        for (const c of SPACES_AND_FORMATS.filter((s) => !skip.has(s)))
          for (const text of [c, `${c}x`, `x${c}`, `a${c}b`, `a${c}${c}b`, `a ${c}b`, `${c}\n`, `1${c}2`, `.${c}.`])
            agrees(text);
      });

      it('agrees on the cases that used to differ', () => {
        const cases = [
          'x\uFEFFusing System;',
          '\uFEFFusing',
          '\uFEFF\n',
          '\uFEFF\uFEFF',
          ' \uFEFF',
          '\uFEFF#',
          'a\u0085b',
          'a\u0085\u0085 b',
          "it'\u017Fx",
          "don'\u017F",
          "DON'\u017FT",
          'a'.repeat(3000),
          '='.repeat(2000),
          `${' '.repeat(1000)}x`,
        ].filter((text) => ![...(pair.unlike?.characters ?? '')].some((c) => text.includes(c)));
        for (const text of cases) agrees(text);
      });
    });
  }

  it('the issue #23 example: "x\\uFEFFusing System;" is 4 o200k_base tokens, as tiktoken says', () => {
    assert.equal(getTokenizer('o200k_base').count('x\uFEFFusing System;'), 4);
  });

  it('a reference left to its own devices on the excluded characters really departs (so excluding them hides nothing of ours)', () => {
    for (const pair of DIFFERENTIAL_PAIRS.filter((p) => p.unlike)) {
      const reference = pair.reference();
      const ours = getTokenizer(pair.ours);
      for (const c of pair.unlike?.characters ?? '') {
        const probes = [` ${c}x`, `a ${c}b`, `${c}${c}1`];
        assert.ok(
          probes.some((text) => reference.encode(text).join() !== ours.encode(text).join()),
          `${reference.name} agrees with us around U+${c.charCodeAt(0).toString(16).toUpperCase()}: ${pair.unlike?.why}`,
        );
      }
    }
  });
});
