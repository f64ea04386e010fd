import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../..');
const CLI = join(ROOT, 'dist/cli.js');
/** The bound for any one CLI invocation. */
export const LIMIT_MS = 30_000;

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
  ms: number;
}

/** Starts the built CLI with a 2 GB heap; the caller collects or kills it. */
export function spawnCli(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  return spawn(process.execPath, ['--max-old-space-size=2048', CLI, ...args], {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: LIMIT_MS,
  });
}

/** Runs the built CLI to its end (killed at LIMIT_MS). */
export function cli(cwd: string, args: string[], env?: NodeJS.ProcessEnv): Promise<CliRun> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawnCli(cwd, args, env);
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr, ms: performance.now() - started }));
  });
}
