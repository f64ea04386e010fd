// npm run fit: fits data/engines.json (efficiencies, overheads, TTFT bands) to the fit half of
// data/validation.json, starting from data/engine-priors.json. The check half is never read here.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENGINE_CLASSES } from '../src/core/estimate/schemas';
import {
  deriveBands,
  fitEngines,
  fittedEngineRows,
  leaveOneSourceOut,
  priorsFileSchema,
} from '../src/core/estimate/fit';
import { loadValidation } from '../src/core/estimate/validationSet';

const root = join(__dirname, '..');
const date = process.argv.find((a) => /^\d{4}-\d{2}-\d{2}$/.test(a)) ?? new Date().toISOString().slice(0, 10);
const { fitPoints, tables } = loadValidation();
const priors = priorsFileSchema.parse(JSON.parse(readFileSync(join(root, 'data/engine-priors.json'), 'utf8')));
const fit = fitEngines(fitPoints, tables, priors);
const residuals = leaveOneSourceOut(fitPoints, tables, priors);
const bands = deriveBands(residuals, ENGINE_CLASSES, date);

const path = join(root, 'data/engines.json');
const file = JSON.parse(readFileSync(path, 'utf8')) as { engines: unknown[]; bands: unknown[] };
const builtinRows = [...tables.engines.values()].filter((e) =>
  (file.engines as { id: string }[]).some((r) => r.id === e.id),
);
file.engines = fittedEngineRows(builtinRows, fit, date);
file.bands = bands.map((b) => ({
  id: b.id,
  low: b.low,
  high: b.high,
  derivation: b.derivation,
  source: 'npm run fit: leave-one-source-out residuals of the fit half of data/validation.json',
  date,
}));
writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
console.log(`fitted ${fitPoints.length} points; wrote ${path}`);
for (const b of bands) console.log(`  band ${b.id}: ${b.derivation}`);
