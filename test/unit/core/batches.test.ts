import assert from 'node:assert/strict';
import { batches } from '../../../src/core/analysis/batches';

describe('batches (the workspace scan, a message at a time)', () => {
  it('keeps order, stays within the limit, and sends an item over the limit alone', () => {
    const sizes = [4, 3, 3, 9, 12, 1, 1, 10];
    const runs = [...batches(sizes, 10, (n) => n)];
    assert.deepEqual(runs, [[4, 3, 3], [9], [12], [1, 1], [10]]);
    assert.deepEqual(runs.flat(), sizes);
  });

  it('yields nothing for nothing, and one batch when everything fits', () => {
    assert.deepEqual([...batches([], 10, (n: number) => n)], []);
    assert.deepEqual([...batches(['a', 'bb'], 10, (s) => s.length)], [['a', 'bb']]);
  });
});
