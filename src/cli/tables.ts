import { loadTables, parseTableText, type TableSource, type Tables } from '../core/estimate';
import { readInput, UsageError, type CliIo } from './io';

/** Loads built-in tables plus each --table FILE; invalid rows are reported on stderr and skipped. */
export async function loadCliTables(files: readonly string[], io: CliIo): Promise<Tables> {
  const sources: TableSource[] = [];
  for (const file of files) {
    const { text } = await readInput(io, file, 'table ');
    const { source, problem } = parseTableText(file, text);
    if (problem) throw new UsageError(`table ${file}: ${problem.message}`);
    if (source) sources.push(source);
  }
  const { tables, problems } = loadTables(sources);
  for (const p of problems)
    io.err(`prompt-lens: ${p.source}: ${p.path}${p.id ? ` (${p.id})` : ''}: ${p.message}; row skipped\n`);
  return tables;
}
