import type { Tokenizer, TokenizerId } from './tokenize/types';

export interface FileCount {
  tokenizer: TokenizerId;
  exact: boolean;
  /** Tokens of the file's exact text: no trimming, no line-end normalisation. */
  contentTokens: number;
}

export function countText(text: string, tokenizer: Tokenizer): FileCount {
  return { tokenizer: tokenizer.id, exact: tokenizer.exact, contentTokens: tokenizer.count(text) };
}
