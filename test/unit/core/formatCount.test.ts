import assert from 'node:assert/strict';
import fc from 'fast-check';
import { formatCount, formatUsd } from '../../../src/core/format';
import { fuzzParams } from '../helpers/fuzz';

/** formatCount groups digits itself (no ICU on the editor's host thread): it must say what toLocaleString says. */
describe('formatCount', () => {
  const icu = (n: number) => Math.round(n).toLocaleString('en-US');

  it('equals toLocaleString("en-US") of the rounded number', () => {
    for (const n of [0, -0, 0.4, -0.4, 1, 12, 123, 999, 1000, 1234.5, -1234.5, 999_999, 1e6, 2 ** 53, -(2 ** 53), 1e21])
      assert.equal(formatCount(n), icu(n), String(n));
    for (const n of [Number.NaN, Infinity, -Infinity]) assert.equal(formatCount(n), icu(n));
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 }), fc.double({ noNaN: true })), (n) => {
        assert.equal(formatCount(n), icu(n));
      }),
      fuzzParams(19, 2000, true),
    );
  });

  it('groups thousands', () => {
    assert.equal(formatCount(1_234_567), '1,234,567');
    assert.equal(formatCount(-1000), '-1,000');
    assert.equal(formatUsd(1234.4), '$1,234');
  });
});
