import type { SimClock } from '../../../src/core/sim/server';

/**
 * Virtual time shared by the simulator and the client measuring it, one request at a time. The
 * simulator's sleeps advance the time without waiting; a sleep first waits until the client has read
 * the clock since the previous sleep — it has taken what was written before — so each client reading
 * is the simulated time of what it read: TTFT is exactly the latency model's prefill, whatever the
 * machine's load. (Concurrent requests would share the time; this is for sequential runs.)
 */
export function lockstepClock(): { sim: SimClock; now: () => number; readonly readings: number } {
  let time = 0;
  let readings = 0;
  let readingsAtSleep = 0;
  let waiting: (() => void) | undefined;
  return {
    sim: {
      now: () => time,
      async sleep(ms) {
        if (readings === readingsAtSleep) await new Promise<void>((resolve) => (waiting = resolve));
        readingsAtSleep = readings;
        time += Math.max(0, ms);
      },
    },
    now() {
      readings++;
      const wake = waiting;
      waiting = undefined;
      wake?.();
      return time;
    },
    get readings() {
      return readings;
    },
  };
}
