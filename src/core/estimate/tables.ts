import { formatPath } from '../settings/keepValid';
import { Slicer } from '../slicer';
import type { z } from 'zod';
import builtinEngines from '../../../data/engines.json';
import builtinHardware from '../../../data/hardware.json';
import builtinModels from '../../../data/models.json';
import builtinProviders from '../../../data/providers.json';
import {
  bandRowSchema,
  engineRowSchema,
  hardwareRowSchema,
  modelRowSchema,
  providerRowSchema,
  tableFileSchema,
  type BandRow,
  type EngineRow,
  type HardwareRow,
  type ModelRow,
  type ProviderRow,
} from './schemas';

export interface Tables {
  models: Map<string, ModelRow>;
  hardware: Map<string, HardwareRow>;
  engines: Map<string, EngineRow>;
  /** TTFT range per engine class, keyed by class id. */
  bands: Map<string, BandRow>;
  providers: Map<string, ProviderRow>;
  /** Why a row was skipped, keyed `list:id`: the error for an id the tables then lack says so. */
  skipped: Map<string, string>;
}

/** One invalid row or file: where it came from and which field is at fault. */
export interface TableProblem {
  source: string;
  id?: string;
  /** e.g. `hardware[3].flops.bf16` */
  path: string;
  message: string;
}

/**
 * Rows from one place (built-in file, settings, workspace file, --table FILE); later sources override earlier ones by
 * id.
 */
export interface TableSource {
  name: string;
  data: unknown;
}

export const BUILTIN_SOURCES: readonly TableSource[] = [
  { name: 'built-in data/models.json', data: builtinModels },
  { name: 'built-in data/hardware.json', data: builtinHardware },
  { name: 'built-in data/engines.json', data: builtinEngines },
  { name: 'built-in data/providers.json', data: builtinProviders },
];

export type ListName = 'models' | 'hardware' | 'engines' | 'bands' | 'providers';
/** The row schema of each list of a tables file (also what schemas/tables.schema.json is generated from). */
export const ROW_SCHEMAS: Record<ListName, z.ZodType<{ id: string }, unknown>> = {
  models: modelRowSchema,
  hardware: hardwareRowSchema,
  engines: engineRowSchema,
  bands: bandRowSchema,
  providers: providerRowSchema,
};

/** Merges built-in rows with user sources. Invalid rows are reported and skipped; never throws. */
export function loadTables(userSources: readonly TableSource[] = []): { tables: Tables; problems: TableProblem[] } {
  const steps = mergeSteps(userSources);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * As loadTables, yielding to the event loop about every `sliceMs`: the first validation of each
 * row schema compiles it, tens of milliseconds in all, too long for an editor's thread in one go.
 */
export async function loadTablesSliced(
  userSources: readonly TableSource[] = [],
  sliceMs = 8,
): Promise<{ tables: Tables; problems: TableProblem[] }> {
  const steps = mergeSteps(userSources);
  const slicer = new Slicer(sliceMs);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await slicer.pause();
  }
}

/** The merge, one step per file and per row. */
function* mergeSteps(
  userSources: readonly TableSource[],
): Generator<void, { tables: Tables; problems: TableProblem[] }> {
  const tables: Tables = {
    models: new Map(),
    hardware: new Map(),
    engines: new Map(),
    bands: new Map(),
    providers: new Map(),
    skipped: new Map(),
  };
  const problems: TableProblem[] = [];
  for (const source of [...BUILTIN_SOURCES, ...userSources]) yield* mergeSource(source, tables, problems);
  dropBrokenEngines(tables, problems);
  return { tables, problems };
}

function* mergeSource(source: TableSource, tables: Tables, problems: TableProblem[]): Generator<void> {
  const file = tableFileSchema.safeParse(source.data);
  if (!file.success) {
    for (const issue of file.error.issues)
      problems.push({ source: source.name, path: formatPath(issue.path) || '(root)', message: issue.message });
    return;
  }
  yield;
  for (const list of Object.keys(ROW_SCHEMAS) as ListName[]) {
    for (const [index, raw] of (file.data[list] ?? []).entries()) {
      const parsed = ROW_SCHEMAS[list].safeParse(raw);
      const rowId = idOf(raw);
      if (!parsed.success) {
        const rowProblems = parsed.error.issues.map((issue) => ({
          source: source.name,
          ...(rowId ? { id: rowId } : {}),
          path: formatPath([list, index, ...issue.path]),
          message: issue.message,
        }));
        problems.push(...rowProblems);
        if (rowId) tables.skipped.set(`${list}:${rowId}`, rowProblems.map(describeProblem).join('; '));
      } else {
        (tables[list] as Map<string, unknown>).set(parsed.data.id, parsed.data);
        if (rowId) tables.skipped.delete(`${list}:${rowId}`);
      }
      yield;
    }
  }
}

/** An engine that borrows another's efficiency must name one with its own, and its class needs a band. */
function dropBrokenEngines(tables: Tables, problems: TableProblem[]): void {
  const drop = (row: EngineRow, path: string, message: string) => {
    tables.engines.delete(row.id);
    tables.skipped.set(`engines:${row.id}`, `${path}: ${message}`);
    problems.push({ source: 'tables', id: row.id, path, message });
  };
  for (const row of [...tables.engines.values()]) {
    const from = row.efficiencyFrom;
    if (from !== undefined && !tables.engines.get(from)?.efficiency)
      drop(row, `engines(${row.id}).efficiencyFrom`, `'${from}' is not an engine with its own efficiency`);
    else if (!tables.bands.has(row.class))
      drop(row, `engines(${row.id}).class`, `no band for engine class '${row.class}'`);
  }
}

export function describeProblem(p: TableProblem): string {
  return `${p.source}: ${p.path}: ${p.message}`;
}

/** Parses a workspace or --table file's text; a JSON error becomes a problem, never an exception. */
export function parseTableText(name: string, text: string): { source?: TableSource; problem?: TableProblem } {
  try {
    return { source: { name, data: JSON.parse(text) as unknown } };
  } catch (error) {
    return {
      problem: {
        source: name,
        path: '(file)',
        message: `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      },
    };
  }
}

function idOf(raw: unknown): string | undefined {
  const value = raw && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  return typeof value === 'string' ? value : undefined;
}
