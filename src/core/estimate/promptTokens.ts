import { countPrompt } from '../count';
import { parsePrompt } from '../prompt/parse';
import { resolveTokenizerId } from '../tokenize/models';
import { DEFAULT_TOKENIZER, getTokenizer } from '../tokenize/registry';

export interface PromptTokens {
  /** What the API bills: message text plus chat overhead. */
  tokens: number;
  tokenizer: string;
  /** false when the target's tokenizer is approximated (see `prompt-lens tokenizers`). */
  exact: boolean;
}

/** Input tokens the model is billed for a prompt file, counted with the target's tokenizer. */
export function promptTokenCount(fileName: string, text: string, tokenizerName: string | undefined): PromptTokens {
  const tokenizer = getTokenizer(tokenizerName === undefined ? DEFAULT_TOKENIZER : resolveTokenizerId(tokenizerName));
  const count = countPrompt(parsePrompt(fileName, text), tokenizer);
  return { tokens: count.inputTokens, tokenizer: tokenizer.id, exact: tokenizer.exact };
}
