// `prompt-lens bench FILE … --export artillery|vllm|guidellm|aiperf DIR`: instead of running, write
// the run for another load tool (the run description, its dataset or scenario) and print the
// command lines that run it.
import { join } from 'node:path';
import { artilleryScenario, PROCESSOR_FILE, SCENARIO_FILE } from '../../core/interop/artillery/scenario';
import { aiperfExport } from '../../core/interop/peers/aiperf';
import { runNonces, sh, type PeerExport } from '../../core/interop/peers/common';
import { guidellmExport } from '../../core/interop/peers/guidellm';
import { vllmExport } from '../../core/interop/peers/vllm';
import { RUN_FILE, type ExportedRun } from '../../core/interop/run';
import { EXIT, UsageError, type CliIo } from '../io';

export const EXPORT_KINDS = ['artillery', 'vllm', 'guidellm', 'aiperf'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

/** The processor bundle esbuild writes beside the CLI (dist/artillery-processor.js). */
export const PROCESSOR_BUNDLE = 'artillery-processor.js';

export async function writeExport(kind: ExportKind, dir: string, run: ExportedRun, io: CliIo): Promise<number> {
  const written: string[] = [];
  const write = async (name: string, text: string) => {
    await io.writeFile(join(dir, name), text);
    written.push(name);
  };
  const exported = kind === 'artillery' ? await artilleryFiles(run, io) : peerFiles(kind, run);
  await write(RUN_FILE, `${JSON.stringify(run, null, 2)}\n`);
  for (const file of exported.files) await write(file.name, file.text);
  io.out(
    [
      `Wrote ${written.length} files to ${dir}: ${written.join(', ')}`,
      '',
      `Run ${kind === 'artillery' ? 'it' : 'each level'} from ${sh(dir)}:`,
      '',
      ...exported.commands.flatMap((c) => [c, '']),
      ...exported.notes.map((n) => `Note: ${n}`),
      '',
    ].join('\n'),
  );
  return EXIT.ok;
}

function peerFiles(kind: Exclude<ExportKind, 'artillery'>, run: ExportedRun): PeerExport {
  const make = { vllm: vllmExport, guidellm: guidellmExport, aiperf: aiperfExport }[kind];
  const made = make(run, runNonces());
  if (!made.ok) throw new UsageError(`--export ${kind}: ${made.error}`);
  return made.value;
}

async function artilleryFiles(run: ExportedRun, io: CliIo): Promise<PeerExport> {
  let bundle: string;
  try {
    bundle = await io.readFile(join(__dirname, PROCESSOR_BUNDLE));
  } catch {
    throw new UsageError(
      `--export artillery: the processor bundle ${PROCESSOR_BUNDLE} is not beside the CLI (${__dirname}); build it with npm run build`,
    );
  }
  // The bundle exports createProcessor; the run is appended so the file needs nothing beside it
  // (Artillery's run-lambda/run-fargate/run-aci upload it alone).
  const processor = `${bundle}\nmodule.exports = module.exports.createProcessor(${JSON.stringify(run)});\n`;
  const key = run.apiKeyEnv;
  return {
    files: [
      { name: SCENARIO_FILE, text: artilleryScenario(run) },
      { name: PROCESSOR_FILE, text: processor },
    ],
    commands: [`npx artillery run ${SCENARIO_FILE} --output report.json`, `prompt-lens import artillery report.json`],
    notes: [
      `The key is read from ${key} on each worker (never written to these files). Distributed: see docs/interop.md (run-lambda, run-fargate, run-aci with --count N: each worker runs every level).`,
    ],
  };
}
