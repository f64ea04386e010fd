import fc from 'fast-check';

/**
 * Text that tokenizers get wrong: every Unicode whitespace and format character, combining marks,
 * emoji sequences, flags, CJK and kana, long digit runs, special-token look-alikes, lone surrogates,
 * line ends, contractions with Unicode case folds, and very long words. Characters are taken from
 * blocks assigned since Unicode 6 or earlier, so the reference's and Node's Unicode tables agree.
 */

/** White_Space, JavaScript's extra U+FEFF, and the invisible format characters next to them. */
export const SPACES_AND_FORMATS = [
  '\t',
  '\n',
  '\u000B',
  '\f',
  '\r',
  ' ',
  '\u0085',
  '\u00A0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  '\u2028',
  '\u2029',
  '\u202F',
  '\u205F',
  '\u3000',
  '\uFEFF',
  '\u180E',
  '\u200B',
  '\u200C',
  '\u200D',
  '\u2060',
  '\u00AD',
  '\u061C',
  '\u200E',
  '\u202E',
];

const range = (from: number, to: number): fc.Arbitrary<string> =>
  fc.integer({ min: from, max: to }).map((code) => String.fromCodePoint(code));

const word = (letters: fc.Arbitrary<string>, max: number): fc.Arbitrary<string> =>
  fc.array(letters, { minLength: 1, maxLength: max }).map((parts) => parts.join(''));

const lower = range(0x61, 0x7a);
const upper = range(0x41, 0x5a);

const fragments: Array<fc.Arbitrary<string>> = [
  fc.constantFrom(...SPACES_AND_FORMATS),
  fc
    .array(fc.constantFrom(' ', '\t', '\n', '\r\n', '\r', '\u00A0', '\u3000', '\u0085', '\uFEFF'), { maxLength: 6 })
    .map((parts) => parts.join('')),
  word(lower, 12),
  word(fc.oneof(lower, upper), 12),
  fc.constantFrom('The', ' the', 'HTTP', 'iPhone', 'ǅungla', 'ʰello', 'Ωμέγα', 'Привет', 'שָׁלוֹם', 'مرحبا', 'नमस्ते'),
  // Combining marks alone, after letters, stacked.
  range(0x300, 0x36f),
  fc
    .tuple(fc.oneof(lower, upper), fc.array(range(0x300, 0x36f), { minLength: 1, maxLength: 3 }))
    .map(([base, marks]) => base + marks.join('')),
  // Contractions, with the folds a Unicode (?i:…) makes (ſ, K) and a typographic apostrophe.
  fc.constantFrom("'s", "'S", "'\u017F", "'t", "'re", "'RE", "'ve", "'m", "'ll", "'LL", "'d", "'K", '\u2019s', "'"),
  // Digits: ASCII runs of any length, other scripts' digits, other numbers.
  fc.stringMatching(/^[0-9]{1,40}$/),
  fc.constantFrom('٣', '٤٥٦', '१२३', '²', '½', 'Ⅻ', '①', '𝟙𝟚'),
  // CJK, kana, Hangul, CJK punctuation, astral ideographs.
  word(range(0x4e00, 0x9fa5), 8),
  word(range(0x3041, 0x3096), 8),
  word(range(0x30a1, 0x30fa), 8),
  word(range(0xac00, 0xd7a3), 6),
  fc.constantFrom('。', '、', '「', '」', '！', '？', '（', '）', 'ｱｲｳ', '𠮷', '𩸽'),
  // Emoji: single, skin tones, ZWJ families, flags (regional indicators), tag sequences, keycaps.
  fc.constantFrom(
    '😀',
    '👋🏽',
    '👨‍👩‍👧‍👦',
    '👩🏽‍💻',
    '🏳️‍🌈',
    '🇺🇸',
    '🇯🇵🇫🇷',
    '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
    '1️⃣',
    '❤️',
    '\u{1F9D1}\u200D\u{1F91D}\u200D\u{1F9D1}',
  ),
  // Look-alikes of special tokens of every family we count.
  fc.constantFrom(
    '<|endoftext|>',
    '<|im_start|>',
    '<|im_end|>',
    '<|begin_of_text|>',
    '<|eot_id|>',
    '<|start_header_id|>',
    '<|fim_prefix|>',
    '[INST]',
    '[/INST]',
    '<s>',
    '</s>',
    '<start_of_turn>',
    '<｜User｜>',
    '<|reserved_special_token_5|>',
  ),
  // Lone surrogates (a JavaScript string can hold them; UTF-8 cannot).
  fc.constantFrom('\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uD83D'),
  fc.constantFrom('\r\n', '\r', '\n', '\r\n\r\n', '\n\n\n', ' \n', '\n ', '\n/', '//', '/*', '*/'),
  fc.constantFrom('{', '}', '"', ':', '.', ',', '-', '_', '=>', '...', '!?', '#', '@', '$', '%', '&', '**', '~'),
  fc.string({ unit: 'binary-ascii', maxLength: 8 }),
];

/** Very long words and runs: what quadratic merges and backtracking patterns choke on. */
const longRuns = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('a', 'ab', 'Z', '=', ' ', '\n', '日', 'é', '0', '😀', 'x\u0301'),
      fc.integer({ min: 50, max: 1500 }),
    )
    .map(([unit, n]) => unit.repeat(n)),
  word(lower, 600),
  word(range(0x21, 0x7e), 400),
);

/** A document of up to `maxParts` hard fragments, sometimes with a very long run among them. */
export function hardText(maxParts = 40, withoutCharacters = ''): fc.Arbitrary<string> {
  const text = fc
    .array(fc.oneof({ weight: 30, arbitrary: fc.oneof(...fragments) }, { weight: 1, arbitrary: longRuns }), {
      maxLength: maxParts,
    })
    .map((parts) => parts.join(''));
  if (!withoutCharacters) return text;
  const excluded = new Set(withoutCharacters);
  return text.map((t) => [...t].filter((c) => !excluded.has(c)).join(''));
}
