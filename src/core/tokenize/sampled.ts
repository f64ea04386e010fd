import type { Tokenizer } from './types';

/** Windows counted by `estimateFromSamples`, and their length (UTF-16 units). */
export const SAMPLE_WINDOWS = 16;
export const SAMPLE_CHARS = 16_384;

/**
 * A token estimate for a text too large to tokenise in bounded time: SAMPLE_WINDOWS evenly spaced
 * windows are counted and their tokens per character scaled to the whole length. Deterministic;
 * exact for texts that fit in the windows. Its error is that of the samples' mix against the whole
 * (a few percent on uniform text such as base64, logs or prose; more on a file whose content
 * changes kind from part to part).
 */
export function estimateFromSamples(text: string, tokenizer: Tokenizer): number {
  if (text.length <= SAMPLE_WINDOWS * SAMPLE_CHARS) return tokenizer.count(text);
  const stride = text.length / SAMPLE_WINDOWS;
  let tokens = 0;
  let sampled = 0;
  for (let i = 0; i < SAMPLE_WINDOWS; i++) {
    const start = codePointStart(text, Math.floor(i * stride));
    const end = codePointStart(text, Math.min(start + SAMPLE_CHARS, text.length));
    tokens += tokenizer.countBase(text.slice(start, end));
    sampled += end - start;
  }
  return tokenizer.finish(Math.round((tokens * text.length) / sampled));
}

/** `at`, moved off the second half of a surrogate pair. */
function codePointStart(text: string, at: number): number {
  const code = text.charCodeAt(at);
  return code >= 0xdc00 && code <= 0xdfff ? at + 1 : at;
}
