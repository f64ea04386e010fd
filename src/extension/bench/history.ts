// Benchmark history: one JSON file per run (concurrent runs never share a file), written
// atomically (temp file + rename). A file that does not parse is set aside, never overwritten.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchResult } from '../../core/bench/result';

export interface HistoryEntry {
  schemaVersion: 1;
  promptHash: string;
  prompt: string;
  result: BenchResult;
}

export interface HistoryProblem {
  file: string;
  message: string;
  movedTo: string;
}

export function promptHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

export async function writeAtomically(path: string, text: string): Promise<void> {
  const temp = `${path}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temp, text, { flag: 'wx' });
  await rename(temp, path);
}

export class BenchHistory {
  constructor(private readonly root: string) {}

  private dir(hash: string): string {
    return join(this.root, 'history', hash);
  }

  async save(entry: HistoryEntry): Promise<string> {
    const dir = this.dir(entry.promptHash);
    await mkdir(dir, { recursive: true });
    const stamp = entry.result.startedAt.replace(/[:.]/g, '-');
    const file = join(dir, `${stamp}-${randomBytes(3).toString('hex')}.json`);
    await writeAtomically(file, JSON.stringify(entry, null, 2));
    return file;
  }

  /**
   * Runs of one prompt, newest first, at most `limit` (reading stops there: the folder only grows);
   * corrupt files met on the way are renamed aside and reported.
   */
  async list(
    hash: string,
    limit = Number.POSITIVE_INFINITY,
  ): Promise<{ entries: HistoryEntry[]; problems: HistoryProblem[] }> {
    const dir = this.dir(hash);
    let names: string[];
    try {
      names = (await readdir(dir))
        .filter((n) => n.endsWith('.json'))
        .sort()
        .reverse();
    } catch {
      return { entries: [], problems: [] };
    }
    const entries: HistoryEntry[] = [];
    const problems: HistoryProblem[] = [];
    for (const name of names) {
      if (entries.length >= limit) break;
      const file = join(dir, name);
      try {
        const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<HistoryEntry>;
        if (
          parsed.schemaVersion !== 1 ||
          typeof parsed.result !== 'object' ||
          parsed.result === null ||
          !Array.isArray(parsed.result.modes)
        )
          throw new Error('not a benchmark history entry');
        entries.push(parsed as HistoryEntry);
      } catch (error) {
        const movedTo = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
        await rename(file, movedTo).catch(() => undefined);
        problems.push({ file, message: error instanceof Error ? error.message : String(error), movedTo });
      }
    }
    return { entries, problems };
  }
}
