import assert from 'node:assert/strict';
import { DASHES, seriesStyles } from '../../../src/webview/results/seriesStyles';

const THEME = ['#3794ff', '#d18616', '#89d185', '#b180d7', '#f14c4c', '#cca700'];

describe('chart series styles', () => {
  it('gives every series its own colour, beyond the theme palette too', () => {
    for (const count of [1, 2, 6, 7, 24]) {
      const strokes = seriesStyles(count, THEME).map((s) => s.stroke);
      assert.equal(new Set(strokes).size, count, `${count} series: ${strokes.join(' ')}`);
    }
    assert.deepEqual(
      seriesStyles(3, THEME).map((s) => s.stroke),
      THEME.slice(0, 3),
      'the theme colours come first',
    );
  });

  it('a theme mapping two chart colours to one value does not make two series share it', () => {
    const strokes = seriesStyles(4, ['#3794ff', '#3794FF ', '#89d185']).map((s) => s.stroke);
    assert.equal(new Set(strokes).size, 4, strokes.join(' '));
  });

  it('neighbouring series differ in line style, and the first four styles are all different', () => {
    const styles = seriesStyles(9, THEME);
    for (let i = 1; i < styles.length; i++)
      assert.notDeepEqual(styles[i]!.dash, styles[i - 1]!.dash, `series ${i - 1} and ${i}`);
    assert.equal(new Set(styles.slice(0, DASHES.length).map((s) => s.dash.join(','))).size, DASHES.length);
    assert.deepEqual(styles[0]!.dash, [], 'the first series is solid');
  });
});
