// A stream worker of StreamPool (core/bench/streamPool.ts): measures the requests it is sent on its
// own event loop. Used by bench/client.bench.ts; runBenchmark does not use the pool yet, so it is
// not bundled.
import { parentPort } from 'node:worker_threads';
import { serveStreams } from './streamPool';

const port = parentPort;
if (!port) throw new Error('stream.worker must run as a worker thread');
port.on(
  'message',
  serveStreams((reply) => port.postMessage(reply)),
);
