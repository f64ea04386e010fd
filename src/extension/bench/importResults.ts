// *Import Benchmark Results…* and *Compare Benchmark With…*: result files of this project or of
// another tool (Artillery, vLLM, GuideLLM, AIPerf), read through the core's one loader (validated
// with zod), shown in the results view alone or beside the shown run.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { BenchResult } from '../../core/bench/result';
import { loadReports } from '../../core/interop/loadReports';
import { showError, showInfo } from '../notify';
import { isPromptDocument } from '../promptDocuments';
import { promptHash, type BenchHistory } from './history';
import type { ResultsPanel } from './resultsPanel';

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Asks for the files unless given; the error message names the file and the field at fault. */
async function load(title: string, paths: readonly string[] | undefined): Promise<BenchResult | undefined> {
  const chosen =
    paths ??
    (
      await vscode.window.showOpenDialog({
        title,
        canSelectMany: true,
        filters: { [vscode.l10n.t('Benchmark results')]: ['json', 'jsonl'] },
        openLabel: vscode.l10n.t('Import'),
      })
    )?.map((uri) => uri.fsPath);
  if (!chosen?.length) return undefined;
  let loaded;
  try {
    loaded = await loadReports(chosen, readText);
  } catch (error) {
    loaded = { ok: false as const, error: error instanceof Error ? error.message : String(error) };
  }
  if (loaded.ok) return loaded.value;
  void showError(vscode.l10n.t('Prompt Latency Lens: {0}', loaded.error));
  return undefined;
}

const endpointLine = (result: BenchResult) =>
  `${result.endpoint.name} · ${result.endpoint.model}${result.source ? vscode.l10n.t(' · imported from {0}', result.source.tool) : ''}`;

/**
 * The prompt an imported result measured, whose history keeps it: the one given, else the prompt in the
 * active editor, else the one prompt visible (an import names no workspace file: a run description holds
 * only the file's base name, a peer tool's report nothing).
 */
async function promptFor(given: vscode.Uri | undefined): Promise<vscode.TextDocument | undefined> {
  if (given) return vscode.workspace.openTextDocument(given);
  const active = vscode.window.activeTextEditor?.document;
  if (active && isPromptDocument(active)) return active;
  const visible = vscode.window.visibleTextEditors.map((e) => e.document).filter(isPromptDocument);
  return visible.length === 1 ? visible[0] : undefined;
}

/**
 * Shows an imported result in the results view (verdict, goodput, predicted vs measured as for a run) and
 * adds it to the benchmark history of the prompt it measured, as a run of that prompt is.
 */
export async function importResults(
  panel: ResultsPanel,
  history: BenchHistory,
  paths?: readonly string[],
  prompt?: vscode.Uri,
): Promise<BenchResult | undefined> {
  const result = await load(vscode.l10n.t('Import Benchmark Results'), paths);
  if (!result) return undefined;
  const document = await promptFor(prompt);
  const label = document ? vscode.workspace.asRelativePath(document.uri) : undefined;
  panel.show({
    prompt: label ?? basename(result.source?.file ?? paths?.[0] ?? vscode.l10n.t('imported')),
    endpoint: endpointLine(result),
    result,
    running: false,
  });
  if (!document || !label) {
    void showInfo(
      vscode.l10n.t(
        'Prompt Latency Lens: the imported result is shown but not kept in the benchmark history: open the prompt it measured, then import it again.',
      ),
    );
    return result;
  }
  try {
    await history.save({ schemaVersion: 1, promptHash: promptHash(document.getText()), prompt: label, result });
  } catch (error) {
    void showError(
      vscode.l10n.t('Prompt Latency Lens: could not save the benchmark history: {0}', (error as Error).message),
    );
  }
  return result;
}

/** Puts a saved or imported result beside the run the view shows. */
export async function compareWith(panel: ResultsPanel, paths?: readonly string[]): Promise<BenchResult | undefined> {
  const shown = panel.state;
  if (!shown?.result || shown.running) {
    void showInfo(vscode.l10n.t('Prompt Latency Lens: show a finished benchmark result first, then compare it.'));
    return undefined;
  }
  const result = await load(vscode.l10n.t('Compare Benchmark With'), paths);
  if (result) panel.show({ ...shown, compare: result });
  return result;
}
