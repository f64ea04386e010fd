import { Worker } from 'node:worker_threads';

/** A worker thread running a TypeScript entry through tsx, as the bundles run its built .js. */
export function tsWorker(path: string, workerData?: unknown): Worker {
  return new Worker(`require('tsx/cjs'); require(${JSON.stringify(path)});`, { eval: true, workerData });
}
