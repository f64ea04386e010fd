/** setTimeout's largest delay; a longer one fires after 1 ms, so limits above it are held at it. */
export const MAX_TIMER_MS = 2_147_483_647;

export function timerMs(ms: number): number {
  return Math.min(ms, MAX_TIMER_MS);
}

/**
 * The abort signal of one benchmark run or one request: the caller's signal cancels it, its time
 * limit ends it, and `reason` keeps whichever came first. `close()` drops the listener and the timer.
 */
export class StopSwitch<Limit extends string> {
  reason: 'cancelled' | Limit | undefined;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onCancel = () => this.stop('cancelled');

  constructor(
    private readonly outer: AbortSignal | undefined,
    limitMs: number | undefined,
    limit: Limit,
  ) {
    if (outer?.aborted) this.stop('cancelled');
    // Equivalent mutants: without `once` it is the same, as close() removes the listener and a signal aborts only once.
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: equivalent (above)
    outer?.addEventListener('abort', this.onCancel, { once: true });
    this.timer = limitMs === undefined ? undefined : setTimeout(() => this.stop(limit), timerMs(limitMs));
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  private stop(why: 'cancelled' | Limit): void {
    this.reason ??= why;
    this.controller.abort();
  }

  close(): void {
    clearTimeout(this.timer);
    this.outer?.removeEventListener('abort', this.onCancel);
  }
}
