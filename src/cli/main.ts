import type { Dirent } from 'node:fs';
import { mkdir, readdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { benchCommand, BENCH_USAGE } from './commands/bench';
import { calibrateCommand, CALIBRATE_USAGE } from './commands/calibrate';
import { compareCommand, COMPARE_USAGE } from './commands/compare';
import { countCommand, COUNT_USAGE } from './commands/count';
import { tokenizersCommand, TOKENIZERS_USAGE } from './commands/tokenizers';
import { estimateCommand, ESTIMATE_USAGE } from './commands/estimate';
import { importCommand, IMPORT_USAGE } from './commands/import';
import { mcpCommand, MCP_USAGE } from './commands/mcp';
import { reportCommand, REPORT_USAGE } from './commands/report';
import { serveSimCommand, SERVE_SIM_USAGE } from './commands/serveSim';
import { targetsCommand, TARGETS_USAGE } from './commands/targets';
import { EXIT, terminalSafe, UsageError, type CliIo } from './io';
import { decodeFileText } from '../core/prompt/fileText';

type Command = (args: string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, { run: Command; usage: string }> = {
  count: { run: countCommand, usage: COUNT_USAGE },
  tokenizers: { run: tokenizersCommand, usage: TOKENIZERS_USAGE },
  estimate: { run: estimateCommand, usage: ESTIMATE_USAGE },
  targets: { run: targetsCommand, usage: TARGETS_USAGE },
  compare: { run: compareCommand, usage: COMPARE_USAGE },
  report: { run: reportCommand, usage: REPORT_USAGE },
  bench: { run: benchCommand, usage: BENCH_USAGE },
  calibrate: { run: calibrateCommand, usage: CALIBRATE_USAGE },
  import: { run: importCommand, usage: IMPORT_USAGE },
  'serve-sim': { run: serveSimCommand, usage: SERVE_SIM_USAGE },
  mcp: { run: mcpCommand, usage: MCP_USAGE },
};

function helpText(): string {
  return [
    'Prompt Latency Lens: tokens, TTFT and cost for LLM prompts.',
    '',
    'Usage:',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
    '',
  ].join('\n');
}

/** Runs one CLI invocation and returns its exit code; never throws. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`prompt-lens: unknown command '${name}'; commands: ${Object.keys(COMMANDS).join(', ')}\n`);
    return EXIT.usage;
  }
  // Every verb answers --help (before a `--` that ends the options).
  const options = rest.includes('--') ? rest.slice(0, rest.indexOf('--')) : rest;
  if (options.includes('--help') || options.includes('-h')) {
    io.out(`Usage: ${command.usage}\n`);
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    io.err(`prompt-lens ${name}: ${oneLine(error)}\n`);
    return EXIT.usage;
  }
}

/** Usage errors and node's own argument errors become one line (of at most 1,000 characters), never a stack trace. */
function oneLine(error: unknown): string {
  const text =
    error instanceof UsageError
      ? error.message
      : error instanceof Error
        ? (error.message.split('\n')[0] ?? 'error')
        : String(error);
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  return line.length > 1000 ? `${line.slice(0, 999)}…` : line;
}

/** The CLI's real terminal and file system. */
export function processIo(): CliIo {
  return {
    out: (text) => process.stdout.write(terminalSafe(text)),
    err: (text) => process.stderr.write(terminalSafe(text)),
    readFile: async (path) => decodeFileText(await readFile(path)),
    fileSize: async (path) => {
      const info = await stat(path);
      if (info.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
      if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
      return info.size;
    },
    listFiles,
    writeFile: writeAtomically,
    env: process.env,
    cwd: process.cwd(),
  };
}

/**
 * Temp file beside the target, then rename: an interrupted write leaves the old file or none, never
 * half. The folder is created (an export names a new one).
 */
async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    await writeFile(temp, text, 'utf8');
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git']);

/** CliIo.listFiles; `read` is injectable for tests (root reads every directory, whatever its mode). */
export async function listFiles(
  dir: string,
  onUnreadable: (relativeDir: string) => void,
  read: (path: string) => Promise<Dirent[]> = (path) => readdir(path, { withFileTypes: true }),
  prefix = '',
): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await read(join(dir, prefix));
  } catch (error) {
    if (prefix === '') throw error;
    onUnreadable(prefix);
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) found.push(...(await listFiles(dir, onUnreadable, read, relative)));
    } else if (entry.isFile()) {
      found.push(relative);
    }
  }
  return found;
}

if (require.main === module) {
  runCli(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`prompt-lens: internal error: ${oneLine(error)}\n`);
      process.exitCode = EXIT.usage;
    },
  );
}
