import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import { bpeTokenizer } from '../../../src/core/tokenize/bpe';
import { deepseekTokenizer, qwen2Tokenizer } from '../../../src/core/tokenize/families';
import { sentencePieceTokenizer } from '../../../src/core/tokenize/sentencePiece';
import type { Tokenizer } from '../../../src/core/tokenize/types';

/**
 * Small hand-made vocabularies for the engines' tests (test/unit/core/tokenizeEngines.test.ts): a handful of
 * tokens each, so every merge can be worked out by hand. Each tokenizer is built once, on first use; mutation testing
 * builds them before the tests (test/unit/setup/mutation.mjs), as it does the shipped ones.
 */

/** Byte-level ranks: the 256 bytes are ranks 0–255 (ASCII as text, the rest as bytes), then these tokens. */
export const TINY_BPE_MERGES = [
  'ab', // 256
  'abab', // 257
  'bc', // 258
  '\uFFFD', // 259: what a lone surrogate becomes in UTF-8
  [0xa9, 0x21], // 260: the second byte of "é" and "!": not UTF-8, only reachable inside a character
  '\uFEFFab', // 261: a token that starts with a byte-order mark
  'xab', // 262
] as const;

function tinyBpeRanks(): RawBytePairRanks {
  const bytes = Array.from({ length: 256 }, (_, b) => (b < 0x80 ? String.fromCharCode(b) : [b]));
  return [...bytes, ...TINY_BPE_MERGES];
}

/** Splits into runs of these characters; text between two runs is a piece of its own (Hugging Face's "isolated"). */
export const TINY_BPE_SPLIT = /[a-z\u00e9!\uFEFF\u{1F600}]+/gu;

/**
 * SentencePiece-style tokens in rank order (merge order), then single characters, then the 256 byte tokens, as
 * compactVocabulary lays out a byte_fallback tokenizer.json.
 */
export const TINY_SP_TOKENS = [
  'ab', // 0
  'abab', // 1
  'bc', // 2
  '▁▁', // 3
  '▁x', // 4
  '>▁', // 5: '>' joins a following ▁, so the text is never cut after '>'
  'xab', // 6
  'a', // 7
  'b', // 8
  'c', // 9
  'x', // 10
  '▁', // 11
  '>', // 12
  '<', // 13
  '/', // 14
  ...Array.from({ length: 256 }, (_, b) => `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`), // 15–270
];
export const TINY_SP_BYTE = (b: number): number => 15 + b;

/** GPT-2's byte-to-unicode alphabet (bytes_to_unicode): printable bytes are themselves, the others U+0100 on. */
export function byteLevelAlphabet(): string[] {
  const printable = (b: number): boolean =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let next = 0;
  return Array.from({ length: 256 }, (_, b) => String.fromCharCode(printable(b) ? b : 0x100 + next++));
}

/** Byte-level tokens (Hugging Face strings): the 256 bytes in byte order are ids 0–255, then these. */
export const TINY_BYTE_LEVEL_MERGES = [
  'ab', // 256
  'Ġa', // 257: " a"
  'Ã©', // 258: "é" (C3 A9)
  '12', // 259
  '123', // 260
  'ÄĢ', // 261: "Ā" (C4 80)
  'ä¸', // 262: the first two bytes of "一" (E4 B8 80)
  'ä¸Ģ', // 263: "一"
  'ä¸Ģä¸Ģ', // 264: "一一"
  'aä¸Ģ', // 265: "a一"
] as const;

export const TINY_SPECIALS = ['<|tiny|>'];

function byteLevelVocabulary(): { tokens: string[]; specials: string[] } {
  return { tokens: [...byteLevelAlphabet(), ...TINY_BYTE_LEVEL_MERGES], specials: TINY_SPECIALS };
}

function once(build: () => Tokenizer): () => Tokenizer {
  let built: Tokenizer | undefined;
  return () => (built ??= build());
}

export const TINY_TOKENIZERS = {
  bpe: once(() => bpeTokenizer('o200k_base', tinyBpeRanks(), TINY_BPE_SPLIT)),
  /** A split pattern that can match empty text, which the engine refuses. */
  emptyMatch: once(() => bpeTokenizer('o200k_base', tinyBpeRanks(), /a*/gu)),
  sentencePiece: once(() =>
    sentencePieceTokenizer('gemma3', { tokens: TINY_SP_TOKENS, specials: TINY_SPECIALS }, { dummyPrefix: false }),
  ),
  sentencePieceDummy: once(() =>
    sentencePieceTokenizer('mistral', { tokens: TINY_SP_TOKENS, specials: [] }, { dummyPrefix: true }),
  ),
  qwen2: once(() => qwen2Tokenizer(byteLevelVocabulary())),
  deepseek: once(() => deepseekTokenizer(byteLevelVocabulary())),
};
