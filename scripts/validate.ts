// npm run validate: predicted vs measured single-request TTFT for every point in data/validation.json, the fit
// half (in-sample) and the check half (held out, never read by npm run fit) side by side.
import { loadValidation } from '../src/core/estimate/validationSet';
import {
  inRangeShare,
  median,
  medianAbsPctError,
  predictPoint,
  type ValidationRow,
} from '../src/core/estimate/validation';

const { file, tables, split } = loadValidation();
const rows = file.points.map((p) => predictPoint(p, tables, split.get(p.source) ?? 'fit'));
const defaultRows = file.points.map((p) => predictPoint(p, tables, split.get(p.source) ?? 'fit', null));
const pct = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`;
const pad = (s: string, n: number) => s.padEnd(n);

console.log(
  `${pad('point', 34)}${pad('half', 6)}${pad('engine (version, scope)', 36)}${pad('target', 40)}${'n'.padStart(6)}${'measured'.padStart(10)}${'predicted'.padStart(11)}${'range'.padStart(18)}${'error'.padStart(9)}`,
);
for (const r of [...rows].sort((a, b) => a.half.localeCompare(b.half) || a.point.id.localeCompare(b.point.id))) {
  const p = r.point;
  console.log(
    `${pad(p.id, 34)}${pad(r.half, 6)}${pad(`${p.engine} ${p.engineVersion}, ${p.scope}`.slice(0, 35), 36)}${pad(r.target.slice(0, 39), 40)}${String(p.inputTokens).padStart(6)}${r.measuredMs.toFixed(1).padStart(10)}${r.predictedMs.toFixed(1).padStart(11)}${`${r.low.toFixed(0)}–${r.high.toFixed(0)}${r.inRange ? ' ' : '*'}`.padStart(18)}${pct(r.errorPct).padStart(9)}`,
  );
}

function summary(label: string, list: readonly ValidationRow[], byDefault: readonly ValidationRow[]): void {
  const engines = new Set(list.map((r) => r.point.engine)).size;
  const gpus = new Set(list.map((r) => r.point.hardware)).size;
  const sources = new Set(list.map((r) => r.point.source)).size;
  console.log(
    `${label}: ${list.length} points, ${sources} sources, ${engines} engines, ${gpus} hardware types; median |error| ${medianAbsPctError(list).toFixed(1)}% with the engine given, ${medianAbsPctError(byDefault).toFixed(1)}% with the default engine; signed median ${pct(median(list.map((r) => r.errorPct)))}; inside the range ${(inRangeShare(list) * 100).toFixed(0)}%`,
  );
}

const fit = rows.filter((r) => r.half === 'fit');
const check = rows.filter((r) => r.half === 'check');
const checkDefault = defaultRows.filter((r) => r.half === 'check');
console.log('');
summary(
  'fit half (in-sample)',
  fit,
  defaultRows.filter((r) => r.half === 'fit'),
);
summary('check half (held out)', check, checkDefault);
console.log('\nper engine, check half: points, median |error| engine given / default engine, inside range');
for (const engine of [...new Set(file.points.map((p) => p.engine))].sort()) {
  const mine = check.filter((r) => r.point.engine === engine);
  const mineDefault = checkDefault.filter((r) => r.point.engine === engine);
  const fitCount = fit.filter((r) => r.point.engine === engine).length;
  console.log(
    `  ${pad(engine, 10)} ${String(mine.length).padStart(3)} held out (${fitCount} fitted)  ${mine.length ? `${medianAbsPctError(mine).toFixed(1)}% / ${medianAbsPctError(mineDefault).toFixed(1)}%, ${(inRangeShare(mine) * 100).toFixed(0)}% in range` : '—'}`,
  );
}
console.log('\nTTFT ranges (data/engines.json bands):');
for (const band of tables.bands.values()) console.log(`  ${pad(band.id, 7)} ${band.derivation}`);

const g = file.goals;
const goals = [
  [
    `check half median |error| with the engine given ≤ ${g.heldOutMedianAbsPctEngineGiven}%`,
    medianAbsPctError(check) <= g.heldOutMedianAbsPctEngineGiven,
  ],
  [
    `check half median |error| with the default engine ≤ ${g.heldOutMedianAbsPctDefaultEngine}%`,
    medianAbsPctError(checkDefault) <= g.heldOutMedianAbsPctDefaultEngine,
  ],
  [`check half inside the range ≥ ${g.inRangeShare * 100}%`, inRangeShare(check) >= g.inRangeShare],
] as const;
console.log('');
for (const [goal, met] of goals) console.log(`${met ? 'MET    ' : 'NOT MET'} ${goal}`);
console.log(
  `(* = measured outside the printed range; ${file.excluded.length} published points excluded, reasons in data/validation.json)`,
);
