// Stroke colour and line style per chart series (unit-tested in Node): a reader must tell series apart by
// colour alone and by line style alone (colour-blind readers, greyscale prints).

export interface SeriesStyle {
  stroke: string;
  /** uPlot/canvas dash pattern; empty = solid. */
  dash: number[];
}

/** Solid, dashed, dotted, dash-dot: four patterns a reader tells apart at chart size. */
export const DASHES: readonly (readonly number[])[] = [[], [8, 4], [2, 3], [10, 3, 2, 3]];

/**
 * One style per series: the theme's chart colours first (duplicates dropped: a theme may map two
 * `--vscode-charts-*` variables to one colour), then hues spaced by the golden angle, so no two series share a
 * colour however many there are; dash patterns cycle so neighbours never share one either.
 */
export function seriesStyles(count: number, palette: readonly string[]): SeriesStyle[] {
  const colours = [...new Set(palette.map((c) => c.trim().toLowerCase()).filter(Boolean))];
  return Array.from({ length: count }, (_, i) => ({
    stroke: colours[i] ?? `hsl(${Math.round((i * 137.508) % 360)}, 65%, 55%)`,
    dash: [...(DASHES[i % DASHES.length] as number[])],
  }));
}
