import assert from 'node:assert/strict';
import fc from 'fast-check';
import { backtickFinder, markdownCodeRanges } from '../../../src/core/prompt/markdownCode';
import { fuzzParams } from '../helpers/fuzz';

describe('Markdown code scan (parsing a workspace fast, with the same results)', () => {
  it('backtickFinder answers as indexOf does, for any order of starting points', () => {
    const text = fc.array(fc.constantFrom('`', 'a', '\n', '\\'), { maxLength: 40 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(45), { maxLength: 20 }), fc.boolean(), (t, froms, ascending) => {
        const next = backtickFinder(t);
        for (const from of ascending ? [...froms].sort((a, b) => a - b) : froms)
          assert.equal(next(from), t.indexOf('`', from), `from ${from} in ${JSON.stringify(t)}`);
      }),
      fuzzParams(20, 2000, true),
    );
  });

  it('code spans in later paragraphs, after paragraphs without backticks and an unmatched one', () => {
    const text = 'a ` b\n\nplain\n\n' + 'more plain\n\n'.repeat(3) + 'c `x` d ``y`` e\n\n\\`z` `\n';
    const at = (s: string, from = 0) => text.indexOf(s, from);
    assert.deepEqual(markdownCodeRanges(text), [
      { start: at('`x`'), end: at('`x`') + 3 },
      { start: at('``y``'), end: at('``y``') + 5 },
      // The escaped backtick is text; the next one opens a span closed by the one after "z".
      { start: at('`z`') + 2, end: at('` `') + 3 },
    ]);
  });
});
