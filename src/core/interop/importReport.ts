// One entry for every import: the CLI's `prompt-lens import KIND FILE…` and the extension's
// Import Results… both come through here.
import type { BenchResult, ResultTool } from '../bench/result';
import { importArtilleryReport } from './artillery/report';
import type { Loaded } from './imported';
import { importAiperf } from './peers/aiperf';
import type { ImportOptions } from './peers/common';
import { importGuidellm } from './peers/guidellm';
import { importVllm } from './peers/vllm';
import { RUN_FILE } from './run';

export interface ReportFile {
  file: string;
  text: string;
  /** For an AIPerf profile_export.jsonl: the profile_export_aiperf.json beside it, when there is one. */
  summary?: string;
}

export function importReport(
  kind: ResultTool,
  files: readonly ReportFile[],
  options: ImportOptions = {},
): Loaded<BenchResult> {
  const [first] = files;
  if (!first) return { ok: false, error: 'no report file given' };
  switch (kind) {
    case 'artillery':
      if (files.length > 1)
        return { ok: false, error: 'an Artillery import reads one report (the aggregate of all its workers)' };
      if (!options.run)
        return {
          ok: false,
          error: `${first.file}: an Artillery report needs the ${RUN_FILE} its export wrote (put it beside the report, or give --run FILE)`,
        };
      return importArtilleryReport(first.text, first.file, options.run);
    case 'vllm': {
      if (files.length > 1)
        return { ok: false, error: 'give one vLLM results file (runs with --append-result share one)' };
      return importVllm(first.text, first.file, options);
    }
    case 'guidellm':
      return importGuidellm(files, options);
    case 'aiperf':
      return importAiperf(files, options);
  }
}

/** Which tool wrote a file, from its content; undefined when it is none of them (or this project's own result). */
export function detectTool(text: string): ResultTool | undefined {
  const head = text.slice(0, 200_000);
  if (/"aggregate"\s*:/.test(head) && /"prompt_lens\.run\./.test(head)) return 'artillery';
  if (/"aggregate"\s*:/.test(head) && /"intermediate"\s*:/.test(head)) return 'artillery';
  if (/"benchmarks"\s*:/.test(head) && /"guidellm_version"|"scheduler_metrics"/.test(head)) return 'guidellm';
  if (/"request_start_ns"\s*:|"aiperf_version"\s*:|"time_to_first_token"\s*:\s*\{/.test(head)) return 'aiperf';
  if (/"model_id"\s*:/.test(head) && /"request_throughput"\s*:/.test(head)) return 'vllm';
  return undefined;
}
