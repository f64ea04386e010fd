// npm run validate: predicted vs measured batch-1 prefill/TTFT for every point in data/validation.json.
import validation from '../data/validation.json';
import { loadTables } from '../src/core/estimate/tables';
import { medianAbsPctError, predictPoint, validationFileSchema } from '../src/core/estimate/validation';

const file = validationFileSchema.parse(validation);
const { tables, problems } = loadTables();
for (const p of problems) console.error(`table problem: ${p.source} ${p.path}: ${p.message}`);

const rows = file.points.map((point) => predictPoint(point, tables));
const pad = (s: string, n: number) => s.padEnd(n);
console.log(
  `${pad('point', 34)}${pad('target', 30)}${pad('engine', 28)}${pad('role', 6)}${'n'.padStart(6)}${'measured ms'.padStart(13)}${'predicted ms'.padStart(14)}${'error'.padStart(9)}`,
);
for (const r of rows) {
  const p = r.point;
  const target = `${p.model}@${p.gpus > 1 ? `${p.gpus}x` : ''}${p.hardware}:${p.precision}`;
  console.log(
    `${pad(p.id, 34)}${pad(target, 30)}${pad(`${p.engine} (${p.engineTier})`, 28)}${pad(p.role, 6)}${String(p.inputTokens).padStart(6)}${r.measuredMs.toFixed(1).padStart(13)}${r.predictedMs.toFixed(1).padStart(14)}${`${r.errorPct >= 0 ? '+' : ''}${r.errorPct.toFixed(1)}%`.padStart(9)}`,
  );
}
const byClass = new Map<string, typeof rows>();
for (const r of rows) {
  const cls = tables.hardware.get(r.point.hardware)?.class ?? '?';
  byClass.set(cls, [...(byClass.get(cls) ?? []), r]);
}
console.log('');
for (const [cls, list] of byClass)
  console.log(
    `${pad(cls, 26)} ${String(list.length).padStart(3)} points, median |error| ${medianAbsPctError(list).toFixed(1)}%`,
  );
const checks = rows.filter((r) => r.point.role === 'check');
console.log(
  `held-out ('check') points: ${checks.length}, median |error| ${medianAbsPctError(checks).toFixed(1)}%; fitted points are in-sample`,
);
const median = medianAbsPctError(rows);
console.log(
  `\n${rows.length} points, median absolute error ${median.toFixed(1)}% (goal ≤ ${file.goalMedianAbsPctError}%): ${median <= file.goalMedianAbsPctError ? 'MET' : 'NOT MET'}`,
);
process.exitCode = median <= file.goalMedianAbsPctError ? 0 : 1;
