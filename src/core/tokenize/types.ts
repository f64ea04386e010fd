/** A loaded tokenizer: counts are the model's own tokenizer's when `exact`, an estimate otherwise. */
export interface Tokenizer {
  readonly id: TokenizerId;
  /** true when counts are the model's real tokenizer's; false for an approximation. */
  readonly exact: boolean;
  /**
   * Tokens of the underlying byte-pair encoding. Sums over chunks split at safe boundaries
   * (see boundaries.ts), which is what incremental counting relies on.
   */
  countBase(text: string): number;
  /**
   * `countBase` by chunk: `text` cut at safe boundaries into chunks of at least `target` UTF-16
   * units (the last may be shorter), each with its own base count, found in the counting pass.
   * The chunks' lengths add up to the text's and their counts to `countBase(text)`.
   */
  countChunks(text: string, target: number): Chunk[];
  /** Turns a (summed) base count into this tokenizer's count: identity for exact tokenizers. */
  finish(baseCount: number): number;
  /** `finish(countBase(text))`. */
  count(text: string): number;
  /**
   * Token ids. An approximation returns its base encoding's (o200k_base) ids: good enough for token
   * positions (prefix-cache blocks), while its counts come from `count`.
   */
  encode(text: string): number[];
  /**
   * The model's special (added) tokens, for text a chat template rendered: there each one is a
   * single token, as inference engines tokenize it. Never applied to prompt text on its own.
   */
  readonly specials?: readonly string[];
  /**
   * SentencePiece tokenizers that prepend `▁` (Mistral): the count of a text that continues the one before it, with
   * no `▁` prepended: how a tokenizer.json whose Metaspace pre-tokenizer has `prepend_scheme: "first"` counts a run
   * that follows a special token (Mistral 7B v0.3).
   */
  countContinuation?(text: string): number;
  /**
   * Empties the merge cache. Mutation testing calls it before each test, so that no test sees merges
   * an earlier one (or an earlier mutant) computed; nothing else needs it.
   */
  clearCache?(): void;
}

/** A stretch of text and its base token count (incremental counting keeps a text as these). */
export interface Chunk {
  /** UTF-16 units. */
  length: number;
  tokens: number;
}

/** What counts when nothing names a model. */
export const DEFAULT_TOKENIZER = 'o200k_base' satisfies ExactTokenizerId;

export const EXACT_TOKENIZER_IDS = [
  'o200k_base',
  'cl100k_base',
  'llama3',
  'qwen2',
  'deepseek-v3',
  'gemma3',
  'mistral',
] as const;
export type ExactTokenizerId = (typeof EXACT_TOKENIZER_IDS)[number];

export const TOKENIZER_IDS = [...EXACT_TOKENIZER_IDS, 'tekken', 'claude', 'gemini', 'approximate'] as const;
export type TokenizerId = (typeof TOKENIZER_IDS)[number];

/**
 * The tokenizers whose loaded instance carries `specials`, so that a chat template renders with them: known without
 * loading a vocabulary, because the extension host keys counts by it and must never load one (see countKey.ts).
 * test/unit/core/countKey.test.ts checks it against every loaded tokenizer.
 */
export const TOKENIZERS_WITH_SPECIALS: ReadonlySet<TokenizerId> = new Set<ExactTokenizerId>([
  'o200k_base',
  'llama3',
  'qwen2',
  'deepseek-v3',
  'gemma3',
  'mistral',
]);

export interface TokenizerInfo {
  readonly id: TokenizerId;
  readonly exact: boolean;
  readonly description: string;
  /** For approximations: how far off it was measured (or why it could not be), in words. */
  readonly error?: string;
}
