import { setImmediate } from 'node:timers/promises';

/**
 * For long loops on an editor's thread: `await slicer.pause()` after each step yields to the event
 * loop once the current slice has run `sliceMs`, and returns at once otherwise.
 */
export class Slicer {
  private sliceStart = performance.now();

  /** `yieldNow`: how a pause yields (the analysis worker's background lane also waits for urgent work). */
  constructor(
    private readonly sliceMs: number,
    private readonly yieldNow: () => Promise<unknown> = setImmediate,
  ) {}

  /** Whether the current slice has run its time (the next pause yields). */
  due(): boolean {
    return performance.now() - this.sliceStart >= this.sliceMs;
  }

  async pause(): Promise<void> {
    if (!this.due()) return;
    await this.yieldNow();
    this.sliceStart = performance.now();
  }
}
