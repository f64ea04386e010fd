// One clock for the bench's processes and threads: CLOCK_MONOTONIC (process.hrtime), which every
// process on the machine reads alike, so a write stamped in the load server and a read stamped in the
// client can be subtracted. performance.now() counts from each thread's own start instead.

/** CLOCK_MONOTONIC in ms. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/**
 * What to add to this thread's performance.now() to get monotonicMs(): both read the same clock, so
 * the offset is constant; the reading with the shortest bracket is kept.
 */
export function performanceToMonotonic(): number {
  performance.now(); // the first call loads the timing module
  let best = { width: Infinity, offset: 0 };
  for (let i = 0; i < 50; i++) {
    const before = monotonicMs();
    const p = performance.now();
    const after = monotonicMs();
    if (after - before < best.width) best = { width: after - before, offset: (before + after) / 2 - p };
  }
  return best.offset;
}
