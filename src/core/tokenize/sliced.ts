import { setImmediate } from 'node:timers/promises';
import { chunkLengths } from './boundaries';
import { CHUNK_TARGET } from './incremental';
import type { Tokenizer } from './types';

export interface SlicedCountOptions {
  /** Yield to the event loop once a slice has run this long (ms). */
  sliceMs?: number;
  signal?: AbortSignal;
  /** Called after each slice with the fraction done, 0..1. */
  onProgress?: (done: number) => void;
}

export interface SlicedCount {
  tokens: number;
  /** The longest stretch the count ran without yielding (ms). */
  longestSliceMs: number;
}

/**
 * Counts a large text in slices, yielding to the event loop between them, so an extension host (or
 * any Node event loop) is never blocked for long. Same result as `tokenizer.count(text)`.
 * Rejects with the signal's reason when aborted.
 */
export async function countSliced(
  text: string,
  tokenizer: Tokenizer,
  options: SlicedCountOptions = {},
): Promise<SlicedCount> {
  const sliceMs = options.sliceMs ?? 8;
  let base = 0;
  let longest = 0;
  let from = 0;
  let sliceStart = performance.now();
  for (const length of chunkLengths(text, 0, text.length, CHUNK_TARGET)) {
    base += tokenizer.countBase(text.slice(from, from + length));
    from += length;
    const elapsed = performance.now() - sliceStart;
    if (elapsed >= sliceMs && from < text.length) {
      longest = Math.max(longest, elapsed);
      options.onProgress?.(from / text.length);
      await setImmediate();
      options.signal?.throwIfAborted();
      sliceStart = performance.now();
    }
  }
  longest = Math.max(longest, performance.now() - sliceStart);
  options.onProgress?.(1);
  return { tokens: tokenizer.finish(base), longestSliceMs: longest };
}
