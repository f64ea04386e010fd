/** A loaded tokenizer: counts are what the model's own tokenizer would produce for the text. */
export interface Tokenizer {
  readonly id: TokenizerId;
  /** true when counts are the model's real tokenizer's; false for an approximation. */
  readonly exact: boolean;
  encode(text: string): number[];
  count(text: string): number;
}

export const TOKENIZER_IDS = ['o200k_base', 'cl100k_base'] as const;
export type TokenizerId = (typeof TOKENIZER_IDS)[number];

export interface TokenizerInfo {
  readonly id: TokenizerId;
  readonly exact: boolean;
  readonly description: string;
}
