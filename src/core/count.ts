import type { ChatRole, ParseError, ParsedPrompt } from './prompt/types';
import { unfilledVariables } from './prompt/variables';
import { withChatOverhead } from './tokenize/chatOverhead';
import { tokenizerForModel } from './tokenize/models';
import { DEFAULT_TOKENIZER, isTokenizerId } from './tokenize/registry';
import type { Tokenizer, TokenizerId } from './tokenize/types';

export interface FileCount {
  tokenizer: TokenizerId;
  exact: boolean;
  /** Tokens of the file's exact text: no trimming, no line-end normalisation. */
  contentTokens: number;
}

export interface PromptCount extends FileCount {
  /** What the API bills: message text plus the family's chat overhead (see chatOverhead.ts). */
  inputTokens: number;
  messages: Array<{ role: ChatRole; tokens: number }>;
  /** Names of variables no sample data filled; they are counted as their literal text. */
  variables: string[];
  errors: ParseError[];
}

/** Something that counts text with a given tokenizer, possibly from a cache (CountMemo, PromptCounter). */
export interface TextCounter {
  count(text: string): number;
}

/**
 * Counts the messages a parsed prompt sends (placeholders filled where sample data exists). Pass a
 * counter for the same tokenizer (a CountMemo) to skip messages unchanged since an earlier count.
 */
export function countPrompt(parsed: ParsedPrompt, tokenizer: Tokenizer, counter: TextCounter = tokenizer): PromptCount {
  const messages = parsed.messages.map((m) => ({ role: m.role, tokens: counter.count(m.rendered) }));
  const contentTokens = messages.reduce((sum, m) => sum + m.tokens, 0);
  return {
    tokenizer: tokenizer.id,
    exact: tokenizer.exact,
    contentTokens,
    inputTokens: withChatOverhead(contentTokens, messages.length, tokenizer.id),
    messages,
    variables: unfilledVariables(parsed),
    errors: parsed.errors,
  };
}

/** The tokenizer a prompt asks for: its front-matter model's when known, else the default. */
export function tokenizerIdFor(parsed: ParsedPrompt): TokenizerId {
  const model = parsed.settings.model;
  if (model === undefined) return DEFAULT_TOKENIZER;
  if (isTokenizerId(model)) return model;
  const id = tokenizerForModel(model);
  return id === 'approximate' ? DEFAULT_TOKENIZER : id;
}
