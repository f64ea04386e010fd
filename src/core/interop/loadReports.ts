// Result files as a result, with the files each tool writes beside them: the export's run
// description, AIPerf's summary beside its per-request records. Reading is injected, so the CLI
// (through its io) and the extension (the file system) share this.
import { dirname, join } from 'node:path';
import { describeIssues } from '../bench/endpoints';
import type { BenchResult, ResultTool, Slo } from '../bench/result';
import { parseBenchResult } from '../bench/resultSchema';
import { baseName, parseJson, type Loaded } from './imported';
import { detectTool, importReport, type ReportFile } from './importReport';
import { parseRunFile, RUN_FILE, type ExportedRun } from './run';

/** Reads a file as text; resolves undefined when there is no such file. */
export type ReadText = (path: string) => Promise<string | undefined>;

export interface LoadOptions {
  /** The tool, or undefined to tell from the first file (and accept this project's own result JSON). */
  tool?: ResultTool;
  /** A run description to use instead of the prompt-lens-run.json beside the first file. */
  runPath?: string;
  slo?: Slo;
}

export async function loadReports(
  paths: readonly string[],
  read: ReadText,
  options: LoadOptions = {},
): Promise<Loaded<BenchResult>> {
  const [first] = paths;
  if (!first) return { ok: false, error: 'no result file given' };
  const texts: string[] = [];
  for (const path of paths) {
    const text = await read(path);
    if (text === undefined) return { ok: false, error: `${path}: no such file` };
    texts.push(text);
  }
  const tool = options.tool ?? detectTool(texts[0]!);
  if (!tool) return ownResult(texts[0]!, first, paths.length);

  const files: ReportFile[] = [];
  for (const [i, path] of paths.entries()) {
    const summary =
      tool === 'aiperf' && path.endsWith('.jsonl')
        ? await read(join(dirname(path), 'profile_export_aiperf.json'))
        : undefined;
    files.push({ file: path, text: texts[i]!, ...(summary !== undefined ? { summary } : {}) });
  }
  const runPath = options.runPath ?? join(dirname(first), RUN_FILE);
  const runText = await read(runPath);
  if (options.runPath && runText === undefined) return { ok: false, error: `${runPath}: no such file` };
  let run: ExportedRun | undefined;
  if (runText !== undefined) {
    const parsed = parseRunFile(runText, runPath);
    if (!parsed.ok) return parsed;
    run = parsed.value;
  }
  return importReport(tool, files, { ...(run ? { run } : {}), ...(options.slo ? { slo: options.slo } : {}) });
}

/** This project's own result JSON (bench --json, Export JSON) or a history entry holding one. */
function ownResult(text: string, file: string, count: number): Loaded<BenchResult> {
  if (count > 1) return { ok: false, error: `${file}: not a vLLM, GuideLLM, AIPerf or Artillery result` };
  const json = parseJson(text, file);
  if (!json.ok) return json;
  const value = json.value as { result?: unknown; schemaVersion?: unknown } | null;
  const candidate =
    value && typeof value === 'object' && 'result' in value && !('modes' in value) ? value.result : value;
  const parsed = parseBenchResult(candidate);
  if (parsed.ok) return parsed;
  return {
    ok: false,
    error: `${baseName(file)}: neither a Prompt Latency Lens result nor a vLLM, GuideLLM, AIPerf or Artillery result (${describeIssues(parsed.issues).slice(0, 300)})`,
  };
}
