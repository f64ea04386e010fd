/**
 * Pre-tokenizer split patterns, written as the reference implementations publish them (tiktoken's
 * `openai_public.py`, Hugging Face `tokenizer.json` "Split" pre-tokenizers), and their translation to
 * JavaScript. The translation matters: the references run Rust's `regex`/`fancy-regex` or Oniguruma,
 * where `\s` is Unicode White_Space, while JavaScript's `\s` also takes U+FEFF and misses U+0085
 * (measured: ~13% of adversarial documents miscounted). And `(?i:'s)` folds case by Unicode rules
 * (`'ſ` matches), which JavaScript's inline-flag-free syntax has to spell out.
 */

/** tiktoken's cl100k_base pattern; Llama 3 uses the same one. */
export const CL100K_PATTERN = String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;

/** tiktoken's o200k_base pattern (its seven alternatives joined by `|`). */
export const O200K_PATTERN = [
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
  String.raw`\p{N}{1,3}`,
  String.raw` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
  String.raw`\s*[\r\n]+`,
  String.raw`\s+(?!\S)`,
  String.raw`\s+`,
].join('|');

/**
 * Letters whose Unicode simple case folding reaches beyond ASCII (checked against every code point
 * with `/c/iu`): what a reference engine's `(?i:…)` matches besides the two ASCII cases.
 */
const EXTRA_FOLDS: Record<string, string> = { s: '\u017f', k: '\u212a' };

/**
 * A reference split pattern as a JavaScript `gu` RegExp with the same matches: `\s`/`\S` become
 * White_Space classes (also inside `[…]`), and each ASCII letter in an `(?i:…)` group becomes the
 * class of its case-fold equivalents. Other syntax is passed through, so it must already be valid
 * in JavaScript's `u` mode (it is for the tiktoken and Hugging Face patterns we use).
 */
export function splitRegex(pattern: string): RegExp {
  let out = '';
  let caseless = -1; // parenthesis depth at which the current (?i: group closes; -1 when outside
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      i++;
      if (next === 's') out += '\\p{White_Space}';
      else if (next === 'S') out += '\\P{White_Space}';
      else out += c + next;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      out += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      out += c;
    } else if (pattern.startsWith('(?i:', i)) {
      if (caseless >= 0) throw new Error(`nested (?i: in split pattern: ${pattern}`);
      caseless = depth++;
      out += '(?:';
      i += 3;
    } else if (c === '(') {
      depth++;
      out += c;
    } else if (c === ')') {
      if (--depth === caseless) caseless = -1;
      out += c;
    } else if (caseless >= 0 && /[a-z]/i.test(c)) {
      const lower = c.toLowerCase();
      out += `[${lower}${lower.toUpperCase()}${EXTRA_FOLDS[lower] ?? ''}]`;
    } else {
      out += c;
    }
  }
  return new RegExp(out, 'gu');
}
