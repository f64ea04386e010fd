import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import { bpeTokenizer } from './bpe';
import { O200K_PATTERN, splitRegex } from './patterns';
import type { Tokenizer } from './types';

/**
 * o200k_base on its own module, so a bundle that needs only it (the Artillery processor counts
 * unreported output tokens with it, as the built-in client does) does not pull in every vocabulary.
 */
export function loadO200k(): Tokenizer {
  const ranks = require('gpt-tokenizer/bpeRanks/o200k_base') as { default?: RawBytePairRanks };
  return {
    ...bpeTokenizer('o200k_base', ranks.default ?? (ranks as unknown as RawBytePairRanks), splitRegex(O200K_PATTERN)),
    specials: HARMONY_SPECIALS,
  };
}

/**
 * o200k_harmony's special tokens (gpt-oss: o200k_base's ranks plus these, openai/harmony), one token each in text the
 * gpt-oss chat template rendered; never applied to prompt text, which the APIs bill as text.
 */
const HARMONY_SPECIALS = [
  '<|startoftext|>',
  '<|endoftext|>',
  '<|return|>',
  '<|constrain|>',
  '<|channel|>',
  '<|start|>',
  '<|end|>',
  '<|message|>',
  '<|call|>',
  '<|endofprompt|>',
];
