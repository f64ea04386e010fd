import type { Tokenizer } from './types';

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
    const tokens = this.tokenizer.count(text);
    if (text.length <= this.maxChars) {
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
