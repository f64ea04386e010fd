import { countWithTemplate, type TemplateCount } from './chat/countChat';
import { chatTemplateForModel } from './chat/templates';
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
  /**
   * What the API bills: for a model with a known chat template (open weights), the whole rendered
   * prompt; otherwise message text plus the family's chat overhead (see chatOverhead.ts).
   */
  inputTokens: number;
  messages: Array<{ role: ChatRole; tokens: number }>;
  /** Tokens the chat template added (role markers, default system prompt, date lines); with `template` only. */
  templateTokens?: number;
  /** The chat template the count rendered, and the template arguments it assumed. */
  template?: TemplateCount['template'];
  /** Why the template could not be used (it rejected the conversation), when it could not. */
  templateError?: string;
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
 * `model` (default: the prompt's own) picks the chat template when it is one whose tokenizer this is.
 */
export function countPrompt(
  parsed: ParsedPrompt,
  tokenizer: Tokenizer,
  counter: TextCounter = tokenizer,
  model: string | undefined = parsed.settings.model,
): PromptCount {
  const messages = parsed.messages.map((m) => ({ role: m.role, tokens: counter.count(m.rendered) }));
  const contentTokens = messages.reduce((sum, m) => sum + m.tokens, 0);
  const common = {
    tokenizer: tokenizer.id,
    exact: tokenizer.exact,
    contentTokens,
    variables: unfilledVariables(parsed),
    errors: parsed.errors,
  };
  const template = model === undefined ? undefined : chatTemplateForModel(model);
  const overhead = { ...common, inputTokens: withChatOverhead(contentTokens, messages.length, tokenizer.id), messages };
  if (!template || template.tokenizer !== tokenizer.id || !tokenizer.specials || messages.length === 0) return overhead;
  try {
    const chat = parsed.messages.map((m) => ({ role: m.role, content: m.rendered }));
    const counted = countWithTemplate(template, chat, tokenizer, counter);
    return {
      ...common,
      inputTokens: counted.inputTokens,
      messages: counted.messages,
      templateTokens: counted.templateTokens,
      template: counted.template,
    };
  } catch (error) {
    return {
      ...overhead,
      templateError: `${template.name}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** The tokenizer a prompt asks for: its front-matter model's when known, else the default. */
export function tokenizerIdFor(parsed: ParsedPrompt): TokenizerId {
  const model = parsed.settings.model;
  if (model === undefined) return DEFAULT_TOKENIZER;
  if (isTokenizerId(model)) return model;
  const id = tokenizerForModel(model);
  return id === 'approximate' ? DEFAULT_TOKENIZER : id;
}
