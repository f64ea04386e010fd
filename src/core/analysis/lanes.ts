import { setImmediate } from 'node:timers/promises';

/**
 * Two lanes of work on one event loop (the analysis worker's). Urgent work — a document's count, which
 * the status bar and hover show — holds the lane from the moment it is asked for until it answers;
 * background work (workspace-scan slices, findings steps) waits at its next pause while any urgent
 * work is in flight, so a count asked for during a scan is not interleaved with the scan's slices.
 */
export class Lanes {
  private urgentInFlight = 0;
  private waiting: Array<() => void> = [];

  /** Runs urgent work; background work stays paused from this call until the work settles. */
  urgent<T>(work: () => Promise<T>): Promise<T> {
    this.urgentInFlight++;
    const done = () => {
      if (--this.urgentInFlight > 0) return;
      for (const resume of this.waiting.splice(0)) resume();
    };
    const run = Promise.resolve().then(work);
    run.then(done, done);
    return run;
  }

  /** Background work's pause: yields to the event loop (messages come in), then waits while urgent work runs. */
  async background(): Promise<void> {
    await setImmediate();
    while (this.urgentInFlight > 0) await new Promise<void>((resume) => this.waiting.push(resume));
  }

  /** Whether urgent work is in flight (background work is held at its next pause). */
  get busy(): boolean {
    return this.urgentInFlight > 0;
  }
}
