import type { Worker } from 'node:worker_threads';
import type { EngineApi, EngineMethod, EngineReply, EngineRequest } from './engineProtocol';

type Result<K extends EngineMethod> = Awaited<ReturnType<EngineApi[K]>>;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** A worker that dies this often within CRASH_WINDOW_MS is not started again (it would only loop). */
const MAX_CRASHES = 3;
const CRASH_WINDOW_MS = 10 * 60_000;

/**
 * A call not answered within this is taken for a hung worker (a catastrophic user regular
 * expression, say), which is then stopped. Generous: a first count of a 2 MiB prompt with three
 * tokenizers on a loaded machine takes seconds; a scan or report of 5,000 files, tens of seconds.
 */
export function defaultTimeoutMs(method: EngineMethod): number {
  return method === 'scanPacked' || method === 'report' ? 300_000 : 60_000;
}

export interface EngineClientOptions {
  /** Told when the worker stopped; `restarting` is false once the client has given up. */
  onExit?: (reason: string, restarting: boolean) => void;
  timeoutMs?: (method: EngineMethod) => number;
  now?: () => number;
}

/**
 * Calls the analysis engine in a worker thread. The worker starts on the first call (activation
 * stays small). If it dies or stops answering, every pending call fails with the reason, `onExit`
 * tells the owner (whose state in the worker is gone) and the next call starts a fresh worker —
 * unless it has failed MAX_CRASHES times within CRASH_WINDOW_MS: then every call fails at once.
 */
export class EngineClient {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private disposed = false;
  private crashes: number[] = [];
  private gaveUp: string | undefined;
  /** Why the current worker stopped, once known. */
  private exitReason: string | undefined;
  /** How many calls of each method were sent (tests read what a refresh asks of the worker). */
  readonly calls: Partial<Record<EngineMethod, number>> = {};

  constructor(
    private readonly spawn: () => Worker,
    private readonly options: EngineClientOptions = {},
  ) {}

  call<K extends EngineMethod>(method: K, ...args: Parameters<EngineApi[K]>): Promise<Result<K>> {
    return this.send(method, args, []);
  }

  /** A call whose arguments hold these buffers: handed to the worker (unusable here afterwards), not copied. */
  transferring<K extends EngineMethod>(
    transfer: ArrayBuffer[],
    method: K,
    ...args: Parameters<EngineApi[K]>
  ): Promise<Result<K>> {
    return this.send(method, args, transfer);
  }

  private send<K extends EngineMethod>(method: K, args: unknown[], transfer: ArrayBuffer[]): Promise<Result<K>> {
    if (this.disposed) return Promise.reject(new Error('the analysis worker has been stopped'));
    if (this.gaveUp) return Promise.reject(new Error(this.gaveUp));
    const worker = this.started();
    const id = this.nextId++;
    this.calls[method] = (this.calls[method] ?? 0) + 1;
    const limit = (this.options.timeoutMs ?? defaultTimeoutMs)(method);
    return new Promise<Result<K>>((resolve, reject) => {
      const timer = setTimeout(() => {
        if (this.worker !== worker) return;
        this.exitReason = `the analysis worker did not answer ${method} within ${limit / 1000} s and was stopped (a pathological pattern in promptLens.variablePatterns or promptLens.rag.pattern can do this)`;
        void worker.terminate();
      }, limit);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      worker.postMessage({ id, method, args } satisfies EngineRequest, transfer);
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
      clearTimeout(pending.timer);
      if ('error' in reply) pending.reject(new Error(reply.error));
      else pending.resolve(reply.result);
    });
    this.exitReason = undefined;
    worker.on('error', (error) => {
      if (this.worker === worker) this.exitReason ??= `the analysis worker failed: ${error.message}`;
    });
    worker.on('exit', (code) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      const reason = this.exitReason ?? `the analysis worker exited with code ${code}`;
      const now = (this.options.now ?? Date.now)();
      this.crashes = [...this.crashes.filter((t) => now - t < CRASH_WINDOW_MS), now];
      if (this.crashes.length >= MAX_CRASHES)
        this.gaveUp = `${reason} (${MAX_CRASHES} times within ${CRASH_WINDOW_MS / 60_000} minutes; not restarted: reload the window to try again)`;
      this.rejectAll(reason);
      if (!this.disposed) this.options.onExit?.(this.gaveUp ?? reason, !this.gaveUp);
    });
    this.worker = worker;
    return worker;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const worker = this.worker;
    this.worker = undefined;
    this.rejectAll('the analysis worker has been stopped');
    await worker?.terminate();
  }

  private rejectAll(reason: string): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new Error(reason));
    }
    this.pending.clear();
  }
}
