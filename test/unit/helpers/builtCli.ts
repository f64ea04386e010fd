import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
/** The bound for any one CLI invocation, in CPU time (wall time on a loaded machine says little). */
export const LIMIT_MS = 30_000;
/** A run still going after this much wall time is hung: it is killed (exit code null). */
const HANG_MS = 10 * LIMIT_MS;
const CPU_PRELOAD = pathToFileURL(join(__dirname, 'cpuTime.mjs')).href;

let built: string | undefined;

/**
 * Bundles the CLI (cli.js, the Artillery processor beside it, the vocabularies) with the build script into
 * `outdir`, as `npm run build` bundles dist/.
 */
export function buildCli(outdir: string): void {
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--cli', `--outdir=${outdir}`], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (build.status !== 0) throw new Error(`esbuild failed: ${build.stderr}`);
}

/**
 * Builds the CLI once per test process (about 3 s) into a temporary folder, removed when the process
 * exits, so tests run what users run and leave the work tree's dist/ alone. Returns the path of cli.js.
 */
export function ensureBuilt(): string {
  if (built) return built;
  const outdir = mkdtempSync(join(tmpdir(), 'prompt-lens-build-'));
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  buildCli(outdir);
  built = join(outdir, 'cli.js');
  return built;
}

function builtCli(): string {
  if (!built) throw new Error('call ensureBuilt() first (in a before hook)');
  return built;
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** CPU time of the CLI process (user + system); NaN when it was killed before exiting. */
  cpuMs: number;
}

/** Starts the built CLI with a 2 GB heap; the caller collects or kills it. */
export function spawnCli(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn(process.execPath, ['--max-old-space-size=2048', '--import', CPU_PRELOAD, builtCli(), ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: HANG_MS,
  });
}

/** Runs the built CLI to its end (killed as hung after HANG_MS), with its CPU time. */
export function cli(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<CliRun> {
  const cpuFile = join(mkdtempSync(join(tmpdir(), 'prompt-lens-cpu-')), 'ms');
  return new Promise((done, fail) => {
    const child = spawnCli(cwd, args, { ...env, PROMPT_LENS_TEST_CPU_FILE: cpuFile });
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => {
      const cpuMs = existsSync(cpuFile) ? Number(readFileSync(cpuFile, 'utf8')) : NaN;
      rmSync(dirname(cpuFile), { recursive: true, force: true });
      done({ code, stdout, stderr, cpuMs });
    });
  });
}
