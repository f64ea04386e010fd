// What the machine was doing beside a benchmark's figures: the load average, and the hypervisor's
// steal — CPU time this virtual machine's CPUs were ready to run but the host ran something else.
// On a shared VM that time is invisible to the guest's scheduler (a thread counts as running while
// stolen) and lands in whatever is being timed. On this project's 2-core VMs it was 1–46 % over
// rounds of the same client bench an hour apart, while threads that never sleep saw 0–4 % just
// before and after in most probes: most of it comes as CPUs wake from idle, as a benchmark's
// threads do all the time (docs/benchmark.md).
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

/** The 1, 5 and 15 minute load averages, two decimals each. */
export function loadAverage(separator = ' '): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(separator);
}

/** Cumulative CPU time of all CPUs since boot, in the kernel's ticks: all of it, and the stolen part. */
export interface CpuTicks {
  total: number;
  steal: number;
}

/**
 * The aggregate `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal, then
 * guest and guest_nice, which user and nice already include (proc(5)), so they are not added again.
 */
export function parseProcStat(text: string): CpuTicks | undefined {
  const line = /^cpu\s+(.*)$/m.exec(text)?.[1];
  const fields = line?.trim().split(/\s+/).map(Number);
  if (!fields || fields.length < 8 || fields.some((n) => !Number.isFinite(n) || n < 0)) return undefined;
  const counted = fields.slice(0, 8);
  return { total: counted.reduce((sum, n) => sum + n, 0), steal: counted[7]! };
}

/** This machine's ticks now; undefined where there is no /proc/stat (not Linux). */
export function cpuTicks(): CpuTicks | undefined {
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/** Steal as a share of all CPU time between two readings; undefined when one is missing or no tick passed. */
export function stealShare(from: CpuTicks | undefined, to: CpuTicks | undefined): number | undefined {
  if (!from || !to || to.total <= from.total) return undefined;
  return (to.steal - from.steal) / (to.total - from.total);
}

/** "steal 12.3 %", or "steal –" where it could not be read. */
export function formatSteal(share: number | undefined): string {
  return `steal ${share === undefined ? '–' : `${(share * 100).toFixed(1)} %`}`;
}

/** What threads that only read the clock saw: the machine's own stalls, which no code it runs can avoid. */
export interface Stalls {
  cpuSeconds: number;
  /** Gaps between two clock reads of 5 ms or more (the client bench's p99 target), and the longest. */
  over5ms: number;
  longestMs: number;
  steal: number | undefined;
}

/**
 * One thread per CPU reads the clock in a loop for `ms`; a gap between two reads is time the thread
 * did not run: another thread of the guest, or the host running something else (steal). With the
 * guest otherwise idle, gaps of 5 ms or more are the floor under any timing made then: a read
 * stamped in such a gap is late by the gap, whatever the client does.
 */
export async function measureStalls(ms: number): Promise<Stalls> {
  const ticks = cpuTicks();
  const spin = `
    const { parentPort, workerData } = require('node:worker_threads');
    const end = performance.now() + workerData;
    let last = performance.now(), over5ms = 0, longestMs = 0;
    for (let t = last; t < end; last = t) {
      t = performance.now();
      if (t - last >= 5) over5ms++;
      if (t - last > longestMs) longestMs = t - last;
    }
    parentPort.postMessage({ over5ms, longestMs });`;
  const threads = await Promise.all(
    Array.from({ length: availableParallelism() }, () => {
      const worker = new Worker(spin, { eval: true, workerData: ms });
      return once(worker, 'message').then(
        ([result]) => (void worker.terminate(), result as Omit<Stalls, 'cpuSeconds' | 'steal'>),
      );
    }),
  );
  return {
    cpuSeconds: (threads.length * ms) / 1000,
    over5ms: threads.reduce((sum, t) => sum + t.over5ms, 0),
    longestMs: Math.max(...threads.map((t) => t.longestMs)),
    steal: stealShare(ticks, cpuTicks()),
  };
}

export function formatStalls(s: Stalls): string {
  return (
    `${s.over5ms} stall${s.over5ms === 1 ? '' : 's'} ≥ 5 ms in ${s.cpuSeconds} CPU-seconds of threads that only read the clock ` +
    `(${(s.over5ms / s.cpuSeconds).toFixed(1)} a second), the longest ${s.longestMs.toFixed(1)} ms; ${formatSteal(s.steal)}`
  );
}
