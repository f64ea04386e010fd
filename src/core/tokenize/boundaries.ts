/**
 * Where a text may be cut so that tokenising the parts separately gives the same tokens as the whole.
 *
 * The o200k_base, cl100k_base and Llama 3 split patterns (all our exact tokenizers, and the base of
 * every approximation) never put these two pairs of characters in one pre-token:
 * - a newline, then a character that is neither whitespace nor `/`: newlines only end a punctuation
 *   run (`[\r\n]*`; o200k `[\r\n/]*`, hence `/`) or sit in a whitespace-only run;
 * - a letter, then a character that is not a letter, a combining mark or `'`: letter runs end in
 *   letters or marks, or in a contraction (`'s`, `'ll`…); no alternative continues past them.
 * What comes after a cut does not depend on what came before (no look-behind), and the only
 * look-ahead (`\s+(?!\S)`, gpt-tokenizer's `\s+$`) concerns whitespace runs, which never end right
 * before such a cut except with a newline that `\s*[\r\n]+` takes first. BPE works per pre-token,
 * so counts add up. The property test in test/unit/core/incremental.test.ts checks all of this.
 */
export function isSafeBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  const before = text.charCodeAt(at - 1);
  // Code point, not code unit: an astral letter's first half must not pass for a non-letter.
  const after = String.fromCodePoint(text.codePointAt(at) as number);
  if (before === 0x0a) return after !== '/' && !WHITESPACE.test(after);
  return LETTER.test(text[at - 1] as string) && !JOINS_LETTER.test(after);
}

const WHITESPACE = /^\s$/u;
const LETTER = /^\p{L}$/u;
const JOINS_LETTER = /^[\p{L}\p{M}']$/u;

/** Lengths of consecutive chunks of text[start, end), each cut at a safe boundary at or after `target` units. */
export function chunkLengths(text: string, start: number, end: number, target: number): number[] {
  const lengths: number[] = [];
  let from = start;
  while (from < end) {
    let cut = Math.min(from + target, end);
    while (cut < end && !isSafeBoundary(text, cut)) cut++;
    lengths.push(cut - from);
    from = cut;
  }
  return lengths;
}
