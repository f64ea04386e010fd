import { CL100K_PATTERN, O200K_PATTERN, splitRegex } from './patterns';

/**
 * Hand-written ASCII paths of the o200k_base and cl100k_base split patterns. The regular expressions
 * (Unicode property classes, alternation, backtracking) take about two thirds of a count's time; most
 * prompt text is ASCII, where each alternative reduces to a few character classes. A path returns
 * the end of the piece that starts at `at` when every character it has to look at is ASCII, and -1
 * otherwise, for the regular expression to decide. A piece's end depends only on the text from `at`
 * on (no look-behind), so mixing the two is exact; `test/unit/core/asciiSplit.test.ts` checks every
 * piece against the regular expression's.
 */
export type PieceEnd = (text: string, at: number) => number;

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
/** \r and \n. */
const NEWLINE = 4;
/** \t, \v, \f and the space: White_Space that is not a newline. */
const SPACE = 5;
/** Everything else ASCII: punctuation, symbols, other controls. */
const OTHER = 6;
/** Not ASCII: the regular expression decides. */
const WIDE = 0;

const CLASS = new Uint8Array(128).map((_, code) => {
  const c = String.fromCharCode(code);
  if (/[a-z]/.test(c)) return LOWER;
  if (/[A-Z]/.test(c)) return UPPER;
  if (/[0-9]/.test(c)) return DIGIT;
  if (c === '\r' || c === '\n') return NEWLINE;
  if (/[\t\v\f ]/.test(c)) return SPACE;
  return OTHER;
});

function classAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? (CLASS[code] as number) : WIDE;
}

/** Letters of one class from `i` on; -1 when a non-ASCII character ends the run (it may continue it). */
function runEnd(text: string, i: number, classes: (c: number) => boolean): number {
  while (i < text.length) {
    const c = classAt(text, i);
    if (c === WIDE) return -1;
    if (!classes(c)) return i;
    i++;
  }
  return i;
}

const isLower = (c: number): boolean => c === LOWER;
const isUpper = (c: number): boolean => c === UPPER;
const isLetter = (c: number): boolean => c === LOWER || c === UPPER;
const isOther = (c: number): boolean => c === OTHER;

/**
 * `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at `i`: its end, or `i` when none. Of the characters after the
 * apostrophe only ASCII letters and ſ (which folds to s, as in the references) can match.
 */
function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  const a = text[i + 1]?.toLowerCase() ?? '';
  const b = text[i + 2]?.toLowerCase() ?? '';
  if (a === 's' || a === '\u017F' || a === 't' || a === 'm' || a === 'd') return i + 2;
  if ((a === 'r' && b === 'e') || (a === 'v' && b === 'e') || (a === 'l' && b === 'l')) return i + 3;
  return i;
}

/** `\p{N}{1,3}` at `at`, which holds an ASCII digit. */
function digitsEnd(text: string, at: number): number {
  let i = at + 1;
  for (; i < at + 3 && i < text.length; i++) {
    const c = classAt(text, i);
    if (c === WIDE) return -1;
    if (c !== DIGIT) break;
  }
  return i;
}

/** `?[^\s\p{L}\p{N}]+` then `[\r\n]*` (or o200k's `[\r\n/]*`) from `from`, which holds an OTHER character. */
function punctuationEnd(text: string, from: number, slash: boolean): number {
  let i = runEnd(text, from, isOther);
  if (i < 0) return -1;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x0d && code !== 0x0a && !(slash && code === 0x2f)) break;
  }
  return i;
}

/** `\s*[\r\n]+|\s+(?!\S)|\s+` at `at`, which holds ASCII whitespace. */
function whitespaceEnd(text: string, at: number): number {
  let lastNewline = -1;
  let i = at;
  for (; i < text.length; i++) {
    const c = classAt(text, i);
    if (c === WIDE) return -1;
    if (c === NEWLINE) lastNewline = i;
    else if (c !== SPACE) break;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  if (i === text.length || i - at === 1) return i;
  return i - 1;
}

/** o200k_base's letter alternatives from `from` (a letter): `[Lu…]*[Ll…]+` or `[Lu…]+[Ll…]*`, then a contraction. */
function o200kLettersEnd(text: string, from: number): number {
  const upper = runEnd(text, from, isUpper);
  if (upper < 0) return -1;
  const end = classAt(text, upper) === LOWER ? runEnd(text, upper, isLower) : upper;
  return end < 0 ? -1 : contractionEnd(text, end);
}

function o200kPieceEnd(text: string, at: number): number {
  const c = classAt(text, at);
  switch (c) {
    case LOWER:
    case UPPER:
      return o200kLettersEnd(text, at);
    case DIGIT:
      return digitsEnd(text, at);
    case NEWLINE:
      return whitespaceEnd(text, at);
    case SPACE:
    case OTHER: {
      const next = at + 1 < text.length ? classAt(text, at + 1) : OTHER;
      if (at + 1 < text.length && next === WIDE) return -1;
      if (at + 1 < text.length && isLetter(next)) return o200kLettersEnd(text, at + 1);
      if (c === OTHER) return punctuationEnd(text, at, true);
      if (text.charCodeAt(at) === 0x20 && at + 1 < text.length && next === OTHER)
        return punctuationEnd(text, at + 1, true);
      return whitespaceEnd(text, at);
    }
    default:
      return -1;
  }
}

function cl100kPieceEnd(text: string, at: number): number {
  const c = classAt(text, at);
  if (c === WIDE) return -1;
  if (text.charCodeAt(at) === 0x27) {
    const contraction = contractionEnd(text, at);
    if (contraction > at) return contraction;
  }
  switch (c) {
    case LOWER:
    case UPPER:
      return runEnd(text, at, isLetter);
    case DIGIT:
      return digitsEnd(text, at);
    case NEWLINE:
      return whitespaceEnd(text, at);
    default: {
      const next = at + 1 < text.length ? classAt(text, at + 1) : OTHER;
      if (at + 1 < text.length && next === WIDE) return -1;
      if (at + 1 < text.length && isLetter(next)) return runEnd(text, at + 1, isLetter);
      if (c === OTHER) return punctuationEnd(text, at, false);
      if (text.charCodeAt(at) === 0x20 && at + 1 < text.length && next === OTHER)
        return punctuationEnd(text, at + 1, false);
      return whitespaceEnd(text, at);
    }
  }
}

const FAST_PATHS = new Map<string, PieceEnd>([
  [splitRegex(O200K_PATTERN).source, o200kPieceEnd],
  [splitRegex(CL100K_PATTERN).source, cl100kPieceEnd],
]);

/** The ASCII path of a split pattern, if it has one (o200k_base's and cl100k_base's, which Llama 3 shares). */
export function asciiPieceEnd(split: RegExp): PieceEnd | undefined {
  return FAST_PATHS.get(split.source);
}
