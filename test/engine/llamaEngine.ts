import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = resolve(__dirname, '../..');

/** What tools/llama-engine/main.ts prints once it listens. */
export interface LlamaEngineInfo {
  baseUrl: string;
  model: string;
  threads: number;
  sequences: number;
  contextSize: number;
  modelFile: string;
  modelBytes?: number;
  startupMs: number;
}

export interface LlamaEngine extends LlamaEngineInfo {
  stop(): Promise<void>;
}

export interface LlamaEngineOptions {
  threads?: number;
  sequences?: number;
  context?: number;
  batch?: number;
}

/**
 * Starts the real llama.cpp engine (tools/llama-engine, installed by `npm run test:engine` or
 * `node scripts/install-llama-engine.mjs`) on a free 127.0.0.1 port and resolves once it listens.
 * Rejects with its stderr if it exits first. `stop()` ends it; so does the end of this process,
 * since the engine quits when its stdin closes.
 */
export async function startLlamaEngine(options: LlamaEngineOptions = {}): Promise<LlamaEngine> {
  const args = ['--port', '0', '--exit-with-stdin'];
  if (options.threads !== undefined) args.push('--threads', String(options.threads));
  if (options.sequences !== undefined) args.push('--sequences', String(options.sequences));
  if (options.context !== undefined) args.push('--context', String(options.context));
  if (options.batch !== undefined) args.push('--batch', String(options.batch));
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/llama-engine/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
  const exited = once(child, 'exit').then(([code, signal]) => {
    throw new Error(`llama engine exited before listening (${code ?? signal}): ${stderr.trim()}`);
  });
  const listening = (async () => {
    for await (const line of createInterface({ input: child.stdout! })) return JSON.parse(line) as LlamaEngineInfo;
    throw new Error(`llama engine closed its output before listening: ${stderr.trim()}`);
  })();
  try {
    const info = await Promise.race([listening, exited]);
    exited.catch(() => undefined);
    return { ...info, stop: () => stop(child) };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const done = once(child, 'exit');
  child.kill('SIGTERM');
  await done;
}
