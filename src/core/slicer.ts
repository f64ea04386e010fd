import { setImmediate } from 'node:timers/promises';

/**
 * For long loops on an editor's thread: `await slicer.pause()` after each step yields to the event
 * loop once the current slice has run `sliceMs`, and returns at once otherwise.
 */
export class Slicer {
  private sliceStart = performance.now();

  constructor(private readonly sliceMs: number) {}

  async pause(): Promise<void> {
    if (performance.now() - this.sliceStart < this.sliceMs) return;
    await setImmediate();
    this.sliceStart = performance.now();
  }
}
