// Garbage-collection pauses of the client bench's threads: each thread that imports this reports its
// pauses on one BroadcastChannel, and `gcPauses()` in the bench's main thread collects them, so a
// stream worker's pauses (the product's worker, unchanged) can be set beside the timing error.
import { BroadcastChannel, isMainThread } from 'node:worker_threads';
import { PerformanceObserver } from 'node:perf_hooks';

const CHANNEL = 'client-bench-gc';

/** Starts reporting this thread's GC pauses (ms) on the channel. */
export function reportGcPauses(): void {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  new PerformanceObserver((list) => {
    channel.postMessage(list.getEntries().map((e) => e.duration));
  }).observe({ entryTypes: ['gc'] });
}

/** Collects every reporting thread's pauses; `take()` returns and forgets those so far. */
export function gcPauses(): { take(): number[]; close(): void } {
  const channel = new BroadcastChannel(CHANNEL);
  channel.unref();
  let pauses: number[] = [];
  channel.onmessage = (event) => pauses.push(...((event as { data?: number[] }).data ?? []));
  return {
    take: () => {
      const all = pauses;
      pauses = [];
      return all;
    },
    close: () => channel.close(),
  };
}

if (!isMainThread) reportGcPauses();
