import assert from 'node:assert/strict';
import { ShownOnce } from '../../../src/extension/surfaces/shownOnce';

/** Surface refreshes coalesced: one analysis under one settings object is put on a document's surfaces once. */
describe('ShownOnce (surface refreshes coalesced)', () => {
  const documentA = { uri: 'a.prompt' };
  const documentB = { uri: 'b.prompt' };
  const [analysis1, analysis2, settings1, settings2] = [{ version: 1 }, { version: 2 }, {}, {}];

  it('shows the first time, skips the same analysis and settings again, shows anything new', () => {
    const shown = new ShownOnce<object>();
    // Opening: the open event, the active editor and the analyzer's event each refresh with the one analysis.
    const applied = [1, 2, 3].filter(() => shown.changed(documentA, analysis1, settings1));
    assert.deepEqual(applied, [1]);
    assert.equal(shown.changed(documentA, analysis2, settings1), true, 'a new analysis (an edit, the findings)');
    assert.equal(shown.changed(documentA, analysis2, settings2), true, 'new settings (diagnostics turned off)');
    assert.equal(shown.changed(documentA, analysis2, settings2), false);
    assert.equal(shown.changed(documentA, analysis1, settings2), true, 'back to an older one is a change too');
    // Equal-looking but different objects are different analyses.
    assert.equal(shown.changed(documentA, { version: 1 }, settings2), true);
  });

  it('keeps each key apart, and shows again after forget (closed, hidden)', () => {
    const shown = new ShownOnce<object>();
    assert.equal(shown.changed(documentA, analysis1), true);
    assert.equal(shown.changed(documentB, analysis1), true);
    assert.equal(shown.changed(documentA, analysis1), false);
    shown.forget(documentA);
    assert.equal(shown.changed(documentA, analysis1), true);
    assert.equal(shown.changed(documentB, analysis1), false);
    assert.equal(shown.changed(documentB, analysis1, settings1), true, 'a different number of things shown');
  });
});
