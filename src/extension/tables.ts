import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { loadTablesSliced, parseTableText, type TableSource, type Tables } from '../core/estimate';
import { readSettings } from './settings';

export interface LoadedTables {
  tables: Tables;
  /** Invalid rows and unreadable files, each naming the source and the field at fault. */
  problems: string[];
}

/**
 * Built-in tables, then user rows from settings (`promptLens.models`, `.hardware`, `.providers`),
 * then the workspace table file (`promptLens.tableFile`) — the file and workspace-level rows only in
 * a trusted workspace. Cached until settings change.
 */
export class ExtensionTables implements vscode.Disposable {
  private cached: Promise<LoadedTables> | undefined;

  get(): Promise<LoadedTables> {
    this.cached ??= this.load();
    return this.cached;
  }

  /** Settings changed: the next get() loads again. */
  invalidate(): void {
    this.cached = undefined;
  }

  private async load(): Promise<LoadedTables> {
    // Rows from every scope (workspace ones only when trusted): see MERGED_SETTINGS and RESTRICTED_SETTINGS.
    const { models, hardware, providers, tableFile: file } = readSettings().settings;
    const trusted = vscode.workspace.isTrusted;
    const problems: string[] = [];
    const sources: TableSource[] = [];
    const rows = (list: unknown[]) => (list.length > 0 ? list : undefined);
    const data = { models: rows(models), hardware: rows(hardware), providers: rows(providers) };
    if (data.models || data.hardware || data.providers) sources.push({ name: 'settings', data });
    if (file && trusted) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const path = folder && !file.startsWith('/') ? vscode.Uri.joinPath(folder, file).fsPath : file;
      try {
        const { source, problem } = parseTableText(file, await readFile(path, 'utf8'));
        if (problem) problems.push(`${file}: ${problem.message}`);
        if (source) sources.push(source);
      } catch (error) {
        problems.push(
          `promptLens.tableFile: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        );
      }
    }
    const { tables, problems: rowProblems } = await loadTablesSliced(sources);
    problems.push(
      ...rowProblems.map((p) => `${p.source}: ${p.path}${p.id ? ` (${p.id})` : ''}: ${p.message}; row skipped`),
    );
    return { tables, problems };
  }

  dispose(): void {
    this.cached = undefined;
  }
}
