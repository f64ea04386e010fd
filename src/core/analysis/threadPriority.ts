// The analysis worker yields the CPU to the extension host's thread. On a 2-core machine the worker (and its
// collector) can hold both cores while the host needs one for a moment (a hover, a garbage collection of its own),
// and the host's event loop then waits for the scheduler. A lower-priority worker loses a core to the host whenever
// the host is runnable, and still gets every cycle the host leaves idle.
import { constants, getPriority, setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

/**
 * Ten nice levels below its creator (nice 10 under a nice-0 host, the host's weight 9.3× the worker's), not the
 * lowest (19): with two busy nice-0 threads of the same process, 0.3 s of work took a nice-10 thread 2.0 s and a
 * nice-19 thread 6.2 s — it ran only when they stopped (2026-12-02, this 2-core machine) — so a worker starved by a
 * busy process of the same session could reach the host's 60 s call timeout. The host preempts either.
 */
const BELOW_HOST = 10;

/**
 * Lowers the calling worker thread's CPU priority by ten nice levels (at most to 19). Linux only: there the nice value
 * is a per-thread attribute and `setPriority` with no pid (setpriority(PRIO_PROCESS, 0, …)) changes only the calling
 * thread (man 2 setpriority, NOTES). On macOS and Windows the same call lowers the whole process — the extension host
 * itself — so it is not made there, nor on a process's main thread. Returns whether it was made.
 */
export function yieldToHostThread(): boolean {
  if (process.platform !== 'linux' || isMainThread) return false;
  try {
    setPriority(Math.min(getPriority() + BELOW_HOST, constants.priority.PRIORITY_LOW));
    return true;
  } catch {
    // A sandbox that forbids it (seccomp) leaves the default priority: slower to yield, still correct.
    return false;
  }
}
