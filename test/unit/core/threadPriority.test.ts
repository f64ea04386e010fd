import assert from 'node:assert/strict';
import { getPriority } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { yieldToHostThread } from '../../../src/core/analysis/threadPriority';

const HELPER = join(__dirname, '../../../src/core/analysis/threadPriority.ts');

interface Seen {
  before: number;
  lowered: boolean;
  after: number;
}

/** A worker thread that reads its own priority, calls the helper when asked, and reads it again. */
function inWorker(callHelper: boolean): Promise<Seen> {
  const worker = new Worker(
    `require('tsx/cjs');
     const { getPriority } = require('node:os');
     const { parentPort } = require('node:worker_threads');
     const { yieldToHostThread } = require(${JSON.stringify(HELPER)});
     const before = getPriority();
     const lowered = ${callHelper} ? yieldToHostThread() : false;
     parentPort.postMessage({ before, lowered, after: getPriority() });`,
    { eval: true },
  );
  return new Promise<Seen>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  }).finally(() => void worker.terminate());
}

describe('yieldToHostThread (the analysis worker lowers its own priority, never the host)', () => {
  it('lowers only the calling worker thread on Linux, and nothing elsewhere', async () => {
    const host = getPriority(0);
    const seen = await inWorker(true);
    // A worker starts at its creator's priority.
    assert.equal(seen.before, host);
    if (process.platform === 'linux') {
      // Ten nice levels below the thread that started it (nice 10 under a nice-0 host), at most 19.
      assert.deepEqual(seen, { before: host, lowered: true, after: Math.min(host + 10, 19) });
    } else {
      // macOS/Windows: the call would lower the whole process, so it is not made.
      assert.deepEqual(seen, { before: host, lowered: false, after: host });
    }
    // The main thread, and a thread started afterwards (the benchmark's stream workers), keep the host's priority.
    assert.equal(getPriority(0), host);
    assert.equal(getPriority(process.pid), host);
    assert.deepEqual(await inWorker(false), { before: host, lowered: false, after: host });
  });

  it('does nothing on a main thread (the extension host, the CLI)', () => {
    const host = getPriority(0);
    assert.equal(yieldToHostThread(), false);
    assert.equal(getPriority(0), host);
  });
});
