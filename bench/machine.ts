// What the machine was doing beside a benchmark's figures: the load average, and the hypervisor's
// steal — CPU time this virtual machine's CPUs were ready to run but the host ran something else.
// On a shared VM that time is invisible to the guest's scheduler (a thread counts as running while
// stolen) and lands in whatever is being timed: on the 2-core machines of this project it varied
// from 1 to 24 % between runs of the same client bench minutes apart (docs/benchmark.md).
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

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
