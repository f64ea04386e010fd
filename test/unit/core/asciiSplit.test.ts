import assert from 'node:assert/strict';
import fc from 'fast-check';
import { asciiPieceEnd } from '../../../src/core/tokenize/asciiSplit';
import { CL100K_PATTERN, O200K_PATTERN, splitRegex } from '../../../src/core/tokenize/patterns';
import { fuzzParams } from '../helpers/fuzz';
import { hardText } from '../helpers/hardText';

const asciiParts = [
  { weight: 12, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 6 }) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', ' \n ', "'s", "'LL", "'re", "'", '//', '\n/'),
  },
  { weight: 4, arbitrary: fc.stringMatching(/^[A-Za-z]{1,8}$/) },
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9]{1,7}$/) },
];
/** Only ASCII: the hand-written paths must decide every piece. */
const pureAscii = fc.array(fc.oneof(...asciiParts), { maxLength: 30 }).map((parts) => parts.join(''));
/** Mostly ASCII, where the hand-written paths decide, with a few characters that make them defer. */
const asciiHeavy = fc
  .array(
    fc.oneof(...asciiParts, {
      weight: 1,
      arbitrary: fc.constantFrom('é', '\u0301', 'ſ', '\u00A0', '\u0085', '\uFEFF', '٣', 'Ω', '日', '😀', '\uD800'),
    }),
    { maxLength: 30 },
  )
  .map((parts) => parts.join(''));

describe('ASCII paths of the split patterns', () => {
  for (const [name, pattern] of [
    ['o200k_base', O200K_PATTERN],
    ['cl100k_base', CL100K_PATTERN],
  ] as const) {
    const regex = splitRegex(pattern);
    const pieceEnd = asciiPieceEnd(regex);

    it(`${name}: every piece the ASCII path decides ends where the regular expression's does (property)`, () => {
      assert.ok(pieceEnd, 'has an ASCII path');
      fc.assert(
        fc.property(fc.oneof(asciiHeavy, hardText(20)), (text) => {
          regex.lastIndex = 0;
          for (let match = regex.exec(text); match; match = regex.exec(text)) {
            const end: number = pieceEnd(text, match.index);
            if (end >= 0) assert.equal(end, regex.lastIndex, `${JSON.stringify(text)} at ${match.index}`);
          }
        }),
        fuzzParams(20261203, 2000, true),
      );
    });

    it(`${name}: decides every piece of ASCII text itself, where the regular expression ends it (property)`, () => {
      assert.ok(pieceEnd, 'has an ASCII path');
      fc.assert(
        fc.property(pureAscii, (text) => {
          regex.lastIndex = 0;
          for (let match = regex.exec(text); match; match = regex.exec(text))
            assert.equal(pieceEnd(text, match.index), regex.lastIndex, `${JSON.stringify(text)} at ${match.index}`);
        }),
        fuzzParams(20261202, 2000, true),
      );
    });

    it(`${name}: decides plain ASCII prose and code itself`, () => {
      const text = 'It\'s 2024: HTTPServer said "don\'t"\r\n\tfor (i = 0; i < 10; i++) {} // x\n\n  end';
      let at = 0;
      while (at < text.length) {
        const end: number = pieceEnd?.(text, at) ?? -1;
        assert.ok(end > at, `deferred at ${at}: ${JSON.stringify(text.slice(at, at + 10))}`);
        at = end;
      }
    });
  }

  it('other patterns have no ASCII path', () => {
    assert.equal(asciiPieceEnd(splitRegex(String.raw`\p{L}+|\p{N}|\s+|.`)), undefined);
  });
});
