import { countSliced } from './sliced';
import type { Tokenizer } from './types';

/** Texts shorter than this count in well under a slice; longer ones are counted in slices. */
const SLICED_FROM_CHARS = 32_768;

/**
 * Remembers counts of recently counted texts (one tokenizer), so re-counting a structured prompt
 * after an edit re-tokenises only the messages whose rendered text changed. Bounded by the total
 * length of the texts kept; the oldest go first.
 */
export class CountMemo {
  private readonly counts = new Map<string, number>();
  private kept = 0;

  constructor(
    readonly tokenizer: Tokenizer,
    private readonly maxChars = 4_000_000,
  ) {}

  count(text: string): number {
    const hit = this.counts.get(text);
    if (hit !== undefined) {
      // Re-insert so that Map order is least recently used first.
      this.counts.delete(text);
      this.counts.set(text, hit);
      return hit;
    }
    return this.remember(text, this.tokenizer.count(text));
  }

  /** As count(), but a long text is counted in slices that yield to the event loop. */
  async countAsync(text: string, sliceMs = 8): Promise<number> {
    if (text.length < SLICED_FROM_CHARS || this.counts.has(text)) return this.count(text);
    return this.remember(text, (await countSliced(text, this.tokenizer, { sliceMs })).tokens);
  }

  private remember(text: string, tokens: number): number {
    if (text.length <= this.maxChars && !this.counts.has(text)) {
      this.counts.set(text, tokens);
      this.kept += text.length;
      for (const [old] of this.counts) {
        if (this.kept <= this.maxChars) break;
        this.counts.delete(old);
        this.kept -= old.length;
      }
    }
    return tokens;
  }
}
