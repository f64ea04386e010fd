import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import { byteLevelRanks } from './byteLevel';

/** Llama 3's 128,000 mergeable tokens; ids above are special tokens (see LLAMA3_SPECIALS). */
const MERGEABLE_TOKENS = 128_000;

interface Llama3Vocabulary {
  vocabById: string[];
}

/**
 * Converts llama3-tokenizer-js's vocabulary (Hugging Face byte-level strings, index = token id) into
 * gpt-tokenizer ranks. Llama 3's tokenizer is tiktoken-based with cl100k_base's split pattern, so
 * ranks by id + that pattern reproduce it exactly (checked against the package's own encoder).
 */
export function llama3Ranks(vocabulary: Llama3Vocabulary): RawBytePairRanks {
  return byteLevelRanks(vocabulary.vocabById.slice(0, MERGEABLE_TOKENS));
}

/** Llama 3.x's named special tokens; ids 128002–128255 not named here are `<|reserved_special_token_N|>`. */
export const LLAMA3_SPECIALS = [
  '<|begin_of_text|>',
  '<|end_of_text|>',
  '<|finetune_right_pad_id|>',
  '<|start_header_id|>',
  '<|end_header_id|>',
  '<|eom_id|>',
  '<|eot_id|>',
  '<|python_tag|>',
  ...Array.from({ length: 248 }, (_, i) => `<|reserved_special_token_${i}|>`),
];
