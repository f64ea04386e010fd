// *Import Benchmark Results…* and *Compare Benchmark With…*: result files of this project or of
// another tool (Artillery, vLLM, GuideLLM, AIPerf), read through the core's one loader (validated
// with zod), shown in the results view alone or beside the shown run.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { showError, showInfo } from '../notify';
import type { BenchResult } from '../../core/bench/result';
import { loadReports } from '../../core/interop/loadReports';
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

/** Shows an imported result in the results view (verdict, goodput, predicted vs measured as for a run). */
export async function importResults(panel: ResultsPanel, paths?: readonly string[]): Promise<BenchResult | undefined> {
  const result = await load(vscode.l10n.t('Import Benchmark Results'), paths);
  if (result)
    panel.show({
      prompt: basename(result.source?.file ?? paths?.[0] ?? vscode.l10n.t('imported')),
      endpoint: endpointLine(result),
      result,
      running: false,
    });
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
