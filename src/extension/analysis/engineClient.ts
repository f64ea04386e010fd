import type { Worker } from 'node:worker_threads';
import type { EngineApi, EngineMethod, EngineReply, EngineRequest } from './engineProtocol';

type Result<K extends EngineMethod> = Awaited<ReturnType<EngineApi[K]>>;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

/**
 * Calls the analysis engine in a worker thread. The worker starts on the first call (activation
 * stays small); if it dies, every pending call fails with the reason, `onExit` tells the owner (whose
 * state in the worker is gone) and the next call starts a fresh worker.
 */
export class EngineClient {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;

  constructor(
    private readonly spawn: () => Worker,
    private readonly onExit: (reason: string) => void = () => undefined,
  ) {}

  call<K extends EngineMethod>(method: K, ...args: Parameters<EngineApi[K]>): Promise<Result<K>> {
    if (this.disposed) return Promise.reject(new Error('the analysis worker has been stopped'));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<Result<K>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, method, args } satisfies EngineRequest);
    });
  }

  /** Whether a worker is running (tests check that activation starts none). */
  get running(): boolean {
    return this.worker !== undefined;
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = this.spawn();
    worker.on('message', (reply: EngineReply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if ('error' in reply) pending.reject(new Error(reply.error));
      else pending.resolve(reply.result);
    });
    let reason = 'the analysis worker stopped';
    worker.on('error', (error) => (reason = `the analysis worker failed: ${error.message}`));
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (code !== 0 && reason === 'the analysis worker stopped') reason = `the analysis worker exited with code ${code}`;
      for (const pending of this.pending.values()) pending.reject(new Error(reason));
      this.pending.clear();
      if (!this.disposed) this.onExit(reason);
    });
    this.worker = worker;
    return worker;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    for (const pending of this.pending.values()) pending.reject(new Error('the analysis worker has been stopped'));
    this.pending.clear();
    await worker?.terminate();
  }
}
