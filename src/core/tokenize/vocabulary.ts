/**
 * A vocabulary as this project ships it: token strings in rank order and the special (added) tokens
 * the model's tokenizer matches before BPE. The build writes one per family from the model's
 * `tokenizer.json` with this same function (scripts/vocabularies.mjs), a fraction of its size;
 * tests read the `tokenizer.json` itself.
 */
export interface CompactVocabulary {
  /**
   * Token strings by rank. Byte-level BPE (Qwen2, DeepSeek-V3): Hugging Face byte-level strings in id
   * order, which is their merge order. SentencePiece-style BPE (byte_fallback: Gemma 3): the tokens
   * merges produce in first-merge order, then the single characters, then the `<0xNN>` byte tokens;
   * tokens no merge produces (added tokens, `<unused0>`…) are left out, as BPE never yields them.
   */
  tokens: string[];
  /** Added tokens (`<|im_start|>`, `<bos>`…): one token each wherever they appear in the text. */
  specials: string[];
}

/** The parts of a Hugging Face `tokenizer.json` this project reads. */
export interface TokenizerJson {
  model: { vocab: Record<string, number>; merges?: Array<string | [string, string]>; byte_fallback?: boolean };
  added_tokens?: Array<{ content: string }>;
}

const BYTE_TOKEN = /^<0x[0-9A-F]{2}>$/;

export function compactVocabulary(source: CompactVocabulary | TokenizerJson): CompactVocabulary {
  if ('tokens' in source) return source;
  const specials = (source.added_tokens ?? []).map((t) => t.content);
  if (source.model.byte_fallback) return { tokens: sentencePieceOrder(source), specials };
  const tokens: string[] = [];
  for (const [token, id] of Object.entries(source.model.vocab)) tokens[id] = token;
  return { tokens: Array.from(tokens, (t) => t ?? ''), specials };
}

function sentencePieceOrder(source: TokenizerJson): string[] {
  const merged = new Set<string>();
  for (const merge of source.model.merges ?? []) {
    const [a, b] = typeof merge === 'string' ? merge.split(' ') : merge;
    merged.add(`${a}${b}`);
  }
  const vocab = Object.keys(source.model.vocab);
  const singles = vocab.filter((t) => !merged.has(t) && [...t].length === 1);
  const bytes = vocab.filter((t) => BYTE_TOKEN.test(t));
  return [...merged, ...singles, ...bytes];
}
