/**
 * Where a text may be cut so that tokenising the parts separately gives the same tokens as the whole.
 *
 * The o200k_base, cl100k_base and Llama 3 split patterns (all our exact tokenizers, and the base of
 * every approximation) never put these two pairs of characters in one pre-token:
 * - a newline followed by a character that is neither whitespace nor `/`: newlines only end a
 *   punctuation run (`[\r\n]*`, o200k also `[\r\n/]*`, hence `/`) or sit in a whitespace-only run;
 * - a letter followed by whitespace: letter runs end in letters, marks or a contraction, and no
 *   alternative starts with a letter and continues into whitespace.
 * The only look-ahead (`\s+(?!\S)`, gpt-tokenizer's `\s+$`) concerns whitespace runs, which never end
 * right before such a cut except with a newline that `\s*[\r\n]+` takes first. BPE then works per
 * pre-token, so counts add up. test/unit/core/incremental.test.ts checks this property.
 */
export function isSafeBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  const before = text.charCodeAt(at - 1);
  const after = text[at] as string;
  if (before === 0x0a) return after !== '/' && !WHITESPACE.test(after);
  return WHITESPACE.test(after) && LETTER.test(text[at - 1] as string);
}

const WHITESPACE = /^\s$/u;
const LETTER = /^\p{L}$/u;

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
