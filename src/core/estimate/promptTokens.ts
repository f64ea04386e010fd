import { countPrompt } from '../count';
import { parsePrompt } from '../prompt/parse';
import type { ParsedPrompt } from '../prompt/types';
import type { TokenizerId } from '../tokenize/types';
import { resolveTokenizerId } from '../tokenize/models';
import { DEFAULT_TOKENIZER, getTokenizer } from '../tokenize/registry';

export interface PromptTokens {
  /** What the API bills: message text plus chat overhead. */
  tokens: number;
  tokenizer: string;
  /** false when the target's tokenizer is approximated (see `prompt-lens tokenizers`). */
  exact: boolean;
}

/** The registry tokenizer a target's tokenizer name (a model name or tokenizer id) stands for. */
export function tokenizerIdForName(tokenizerName: string | undefined): TokenizerId {
  return tokenizerName === undefined ? DEFAULT_TOKENIZER : resolveTokenizerId(tokenizerName);
}

/**
 * Input tokens the model is billed for a prompt file, counted with the target's tokenizer. Pass
 * `parsed` when counting one file for several targets, so it is parsed once.
 */
export function promptTokenCount(
  fileName: string,
  text: string,
  tokenizerName: string | undefined,
  parsed: ParsedPrompt = parsePrompt(fileName, text),
): PromptTokens {
  const tokenizer = getTokenizer(tokenizerIdForName(tokenizerName));
  const count = countPrompt(parsed, tokenizer);
  return { tokens: count.inputTokens, tokenizer: tokenizer.id, exact: tokenizer.exact };
}
