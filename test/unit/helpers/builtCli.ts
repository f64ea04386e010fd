import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
/** The bound for any one CLI invocation, in CPU time (wall time on a loaded machine says little). */
export const LIMIT_MS = 30_000;
/** A run still going after this much wall time is hung: it is killed (exit code null). */
const HANG_MS = 10 * LIMIT_MS;
const CPU_PRELOAD = pathToFileURL(join(__dirname, 'cpuTime.mjs')).href;

let built = false;

/** Bundles dist/cli.js once per test process (about 3 s), so tests run what users run. */
export function ensureBuilt(): void {
  if (built) return;
  const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`esbuild failed: ${build.stderr}`);
  built = true;
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
  return spawn(process.execPath, ['--max-old-space-size=2048', '--import', CPU_PRELOAD, CLI, ...args], {
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
