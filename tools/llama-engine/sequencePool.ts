import type { LlamaContext, LlamaContextSequence, Token } from 'node-llama-cpp';

export interface Lease {
  sequence: LlamaContextSequence;
  /** Prompt tokens whose KV entries were already in the sequence and are not evaluated again. */
  reused: number;
  release(): void;
}

interface Slot {
  sequence: LlamaContextSequence;
  lastUsed: number;
}

/**
 * The context's sequences, each keeping the KV cache of what it last evaluated. A request takes
 * the idle sequence sharing the longest prefix with its tokens (the least recently used on a tie),
 * erases what differs and evaluates only the rest: a repeated prompt is warm, a nonce-busted one is
 * cold, as in a serving engine with automatic prefix caching. With every sequence busy, requests
 * wait in arrival order.
 */
export class SequencePool {
  private readonly idle: Slot[];
  private readonly waiters: { resolve: (slot: Slot) => void }[] = [];
  private clock = 0;

  constructor(context: LlamaContext) {
    this.idle = Array.from({ length: context.totalSequences }, () => ({
      sequence: context.getSequence(),
      lastUsed: 0,
    }));
  }

  async acquire(tokens: Token[], signal: AbortSignal): Promise<Lease> {
    const slot = this.take(tokens) ?? (await this.wait(signal));
    // At least the last prompt token is evaluated: its logits give the first output token.
    const reused = Math.min(slot.sequence.compareContextTokens(tokens).firstDifferentIndex, tokens.length - 1);
    try {
      if (reused < slot.sequence.nextTokenIndex)
        await slot.sequence.eraseContextTokenRanges([{ start: reused, end: slot.sequence.nextTokenIndex }]);
    } catch (error) {
      this.give(slot);
      throw error;
    }
    let released = false;
    return {
      sequence: slot.sequence,
      reused,
      release: () => {
        if (released) return;
        released = true;
        this.give(slot);
      },
    };
  }

  private take(tokens: Token[]): Slot | undefined {
    let best = -1;
    let bestShared = -1;
    this.idle.forEach((slot, i) => {
      const shared = slot.sequence.compareContextTokens(tokens).firstDifferentIndex;
      if (shared > bestShared || (shared === bestShared && slot.lastUsed < this.idle[best]!.lastUsed)) {
        best = i;
        bestShared = shared;
      }
    });
    return best < 0 ? undefined : this.idle.splice(best, 1)[0];
  }

  private wait(signal: AbortSignal): Promise<Slot> {
    return new Promise((resolve, reject) => {
      const waiter = {
        resolve: (slot: Slot) => {
          signal.removeEventListener('abort', onAbort);
          resolve(slot);
        },
      };
      const onAbort = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private give(slot: Slot): void {
    slot.lastUsed = ++this.clock;
    const next = this.waiters.shift();
    if (next) next.resolve(slot);
    else this.idle.push(slot);
  }
}
