// `prompt-lens import KIND FILE…`: another tool's result file as this project's result, printed
// like `prompt-lens bench` prints a run (or as JSON), with the same SLO verdict rule.
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { sloVerdict } from '../../core/bench';
import { RESULT_TOOLS } from '../../core/bench/result';
import { loadReports } from '../../core/interop/loadReports';
import { EXIT, readInput, UsageError, type CliIo } from '../io';
import { sloSpec } from './bench';
import { formatBenchReport } from './benchReport';
import { flag } from './flags';

export const IMPORT_USAGE =
  'prompt-lens import artillery|vllm|guidellm|aiperf FILE… [--run prompt-lens-run.json] [--slo ttft=500,tpot=30[,min=90]] [--json]';

const OPTIONS = {
  run: { type: 'string' },
  slo: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const [kindText, ...paths] = positionals;
  const tool = flag(
    'kind',
    kindText ?? '',
    z.enum(RESULT_TOOLS, { error: `must be one of ${RESULT_TOOLS.join(', ')}` }),
  );
  if (paths.length === 0) throw new UsageError(`name the result file(s); usage: ${IMPORT_USAGE}`);
  const slo = values.slo === undefined ? undefined : flag('slo', values.slo, sloSpec);

  // Named files must be readable; the ones looked for beside them may be absent.
  const named = new Set([...paths, ...(values.run ? [values.run] : [])]);
  const read = async (path: string) => {
    if (named.has(path)) return (await readInput(io, path, `${tool} result `)).text;
    try {
      await io.fileSize(path);
    } catch {
      return undefined;
    }
    return (await readInput(io, path)).text;
  };
  const imported = await loadReports(paths, read, {
    tool,
    ...(values.run ? { runPath: values.run } : {}),
    ...(slo ? { slo: { ttftMs: slo.ttftMs, tpotMs: slo.tpotMs } } : {}),
  });
  if (!imported.ok) throw new UsageError(imported.error);
  const result = imported.value;
  if (tool === 'artillery' && slo && (slo.ttftMs !== result.slo.ttftMs || slo.tpotMs !== result.slo.tpotMs))
    io.err(
      `prompt-lens import: Artillery's workers judged each request against the export's SLO (TTFT ${result.slo.ttftMs} ms, TPOT ${result.slo.tpotMs} ms); --slo sets only the share needed\n`,
    );
  const verdict = slo ? sloVerdict(result, slo.minShare) : undefined;
  io.out(
    values.json
      ? `${JSON.stringify(verdict ? { ...result, verdict } : result, null, 2)}\n`
      : formatBenchReport(result, verdict),
  );
  return verdict && !verdict.pass ? EXIT.findings : EXIT.ok;
}
