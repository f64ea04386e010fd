import { startLlamaEngine, type LlamaEngine } from './llamaEngine';

let engine: Promise<LlamaEngine> | undefined;

/**
 * One engine for every suite of the run (starting one costs seconds: llama.cpp checks its binary
 * in a child process, then loads the model). One thread, as a 2-core CI machine allows beside the
 * client; two sequences, so two requests can run at once.
 */
export function sharedEngine(): Promise<LlamaEngine> {
  engine ??= startLlamaEngine({ threads: 1, sequences: 2, context: 4096 });
  return engine;
}

export const mochaHooks = {
  async afterAll(): Promise<void> {
    const running = await engine?.catch(() => undefined);
    await running?.stop();
  },
};
