/**
 * Where a text may be cut so that tokenising the parts separately gives the same tokens as the whole.
 *
 * The o200k_base, cl100k_base and Llama 3 split patterns (patterns.ts: all our exact tokenizers, and
 * the base of every approximation; whitespace there and here is Unicode White_Space) never put these
 * pairs of characters in one pre-token:
 * 1. a newline, then a character that is neither whitespace nor `/`: newlines only end a punctuation
 *    run (`[\r\n]*`; o200k `[\r\n/]*`, hence `/`) or sit in a whitespace-only run;
 * 2. a letter, then a character that is not a letter, a combining mark or `'`: letter runs end in
 *    letters or marks, or in a contraction (`'s`, `'ll`…);
 * 3. a digit, then a non-digit: digit groups (`\p{N}{1,3}`) hold digits only, and no other
 *    alternative takes a digit;
 * 4. a non-whitespace character, then whitespace other than CR/LF: only whitespace alternatives take
 *    whitespace, except a punctuation run's trailing `[\r\n]*` and a leading space before the run.
 * What comes after a cut does not depend on what came before (no look-behind), and the only
 * look-ahead (`\s+(?!\S)`) concerns whitespace runs, which never end right
 * before such a cut except with a newline that `\s*[\r\n]+` takes first. BPE works per pre-token,
 * so counts add up. The property test in test/unit/core/incremental.test.ts checks all of this.
 */
export function isSafeBoundary(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return true;
  const before = text[at - 1] as string;
  // Code point, not code unit: an astral letter's first half must not pass for a non-letter.
  const after = String.fromCodePoint(text.codePointAt(at) as number);
  if (before === '\n') return after !== '/' && !WHITESPACE.test(after);
  if (WHITESPACE.test(before)) return false;
  if (LETTER.test(before) && !JOINS_LETTER.test(after)) return true;
  if (DIGIT.test(before) && !DIGIT.test(after)) return true;
  return after !== '\r' && after !== '\n' && WHITESPACE.test(after);
}

// White_Space, as in the split patterns (see patterns.ts), not JavaScript's `\s`.
const WHITESPACE = /^\p{White_Space}$/u;
const LETTER = /^\p{L}$/u;
const JOINS_LETTER = /^[\p{L}\p{M}']$/u;
const DIGIT = /^\p{N}$/u;

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
