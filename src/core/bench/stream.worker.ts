// A stream worker of StreamPool (core/bench/streamPool.ts): measures the requests it is sent on its
// own event loop. runBenchmark's levels of high concurrency use it (bundled as dist/stream.worker.js).
import { parentPort } from 'node:worker_threads';
import { serveStreams } from './streamPool';

const port = parentPort;
if (!port) throw new Error('stream.worker must run as a worker thread');
port.on(
  'message',
  serveStreams((reply) => port.postMessage(reply)),
);
