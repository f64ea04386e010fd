import { createHash } from 'node:crypto';

/**
 * A prefix cache keyed by whole token blocks, as vLLM's automatic prefix caching and SGLang's radix
 * cache behave: block i is reusable only if every block before it matched too (each key chains
 * the previous one), and the least recently used blocks are evicted first.
 */
export class PrefixCache {
  /** Map iteration order is insertion order: re-inserting on use keeps the oldest first. */
  private readonly blocks = new Map<string, true>();

  constructor(
    readonly blockSize = 16,
    private readonly capacityBlocks = 1 << 16,
  ) {}

  /** How many leading tokens are already cached (a multiple of the block size). */
  lookup(tokens: readonly number[]): number {
    let cached = 0;
    for (const key of this.keys(tokens)) {
      if (!this.blocks.has(key)) break;
      this.touch(key);
      cached += this.blockSize;
    }
    return cached;
  }

  insert(tokens: readonly number[]): void {
    for (const key of this.keys(tokens)) this.touch(key);
    while (this.blocks.size > this.capacityBlocks) this.blocks.delete(this.blocks.keys().next().value as string);
  }

  private touch(key: string): void {
    this.blocks.delete(key);
    this.blocks.set(key, true);
  }

  private *keys(tokens: readonly number[]): Generator<string> {
    let previous = '';
    for (let start = 0; start + this.blockSize <= tokens.length; start += this.blockSize) {
      previous = createHash('sha1')
        .update(previous)
        .update(tokens.slice(start, start + this.blockSize).join(','))
        .digest('base64');
      yield previous;
    }
  }
}
