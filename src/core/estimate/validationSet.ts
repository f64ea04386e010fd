// The built-in validation set, loaded and split: the one place scripts and tests read it from.
import validation from '../../../data/validation.json';
import { loadTables, describeProblem, type Tables } from './tables';
import { splitSources, validationFileSchema, type Half, type ValidationFile, type ValidationPoint } from './validation';

export interface LoadedValidation {
  file: ValidationFile;
  /** Built-in tables plus the validation-only model rows. */
  tables: Tables;
  split: Map<string, Half>;
  fitPoints: ValidationPoint[];
  checkPoints: ValidationPoint[];
}

export function loadValidation(extraTables: Tables | undefined = undefined): LoadedValidation {
  const file = validationFileSchema.parse(validation);
  const { tables, problems } = extraTables
    ? { tables: extraTables, problems: [] }
    : loadTables([{ name: 'data/validation.json models', data: { models: file.models } }]);
  if (problems.length > 0) throw new Error(`validation tables: ${problems.map(describeProblem).join('; ')}`);
  const split = splitSources(
    file.points,
    new Map(file.sources.flatMap((s) => (s.half ? [[s.id, s.half] as const] : []))),
  );
  const unknown = file.points.filter((p) => !file.sources.some((s) => s.id === p.source));
  if (unknown.length > 0) throw new Error(`points name unknown sources: ${unknown.map((p) => p.id).join(', ')}`);
  return {
    file,
    tables,
    split,
    fitPoints: file.points.filter((p) => split.get(p.source) === 'fit'),
    checkPoints: file.points.filter((p) => split.get(p.source) === 'check'),
  };
}
