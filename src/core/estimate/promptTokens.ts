import { parsePrompt } from '../prompt/parse';
import { DEFAULT_TOKENIZER, getTokenizer, isTokenizerId } from '../tokenize/registry';

export interface PromptTokens {
  tokens: number;
  tokenizer: string;
  /** false when the target's tokenizer is not available and o200k_base stood in for it. */
  exact: boolean;
}

/** Tokens the model sees for a prompt file: every message's rendered text, counted with the target's tokenizer when we have it. */
export function promptTokenCount(fileName: string, text: string, tokenizerId: string | undefined): PromptTokens {
  const known = tokenizerId !== undefined && isTokenizerId(tokenizerId);
  const tokenizer = getTokenizer(known ? tokenizerId : DEFAULT_TOKENIZER);
  const tokens = parsePrompt(fileName, text).messages.reduce((sum, m) => sum + tokenizer.count(m.rendered), 0);
  return { tokens, tokenizer: tokenizer.id, exact: known && tokenizer.exact };
}
