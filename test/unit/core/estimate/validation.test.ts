import assert from 'node:assert/strict';
import validation from '../../../../data/validation.json';
import {
  medianAbsPctError,
  predictPoint,
  validationFileSchema,
  type ValidationRow,
} from '../../../../src/core/estimate/validation';
import { builtin } from './helpers';

describe('validation set', () => {
  const file = validationFileSchema.parse(validation);

  it('has at least 20 sourced points that all resolve to known targets', () => {
    assert.ok(file.points.length >= 20);
    for (const p of file.points) assert.doesNotThrow(() => predictPoint(p, builtin), p.id);
  });

  it('meets the batch-1 goal on held-out points, not only the fitted ones', () => {
    const checks = file.points.filter((p) => p.role === 'check').map((p) => predictPoint(p, builtin));
    assert.ok(checks.length >= 10);
    assert.ok(medianAbsPctError(checks) <= file.goalMedianAbsPctError);
  });

  it('median absolute error takes the middle of |errors| (mean of the two middles when even)', () => {
    const rows = (errors: number[]) => errors.map((errorPct) => ({ errorPct }) as ValidationRow);
    assert.equal(medianAbsPctError(rows([-30, 10, 20])), 20);
    assert.equal(medianAbsPctError(rows([-40, 10, 20, 5])), 15);
  });
});
