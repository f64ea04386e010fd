import type { AppliedCorrection } from './calibrate/tokenCorrection';
import { countWithTemplate, type TemplateCount } from './chat/countChat';
import { countDeclared } from './chat/declared';
import type { RequestDeclarations } from './prompt/declarations';
import type { ChatTemplate } from './chat/templates';
import { chatTemplateFor, countKey } from './countKey';
import type { ChatMessage, ChatRole, ParseError, ParsedPrompt } from './prompt/types';
import { unfilledVariables } from './prompt/variables';
import { withChatOverhead } from './tokenize/chatOverhead';
import { tokenizerFor } from './tokenize/models';
import { getTokenizer } from './tokenize/registry';
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
  /** Declared tools and response format tokens in `inputTokens` without a template (with one: in templateTokens). */
  declaredTokens?: number;
  /** Why the count is approximate besides the tokenizer (declared tools, response format without a published rule). */
  approximations?: string[];
  /** Names of variables no sample data filled; they are counted as their literal text. */
  variables: string[];
  errors: ParseError[];
  /**
   * Set when an endpoint's billed counts corrected this (approximate) count for its target: the counts
   * above are then the corrected ones (see core/calibrate/tokenCorrection.ts).
   */
  corrected?: AppliedCorrection;
}

/** Something that counts text with a given tokenizer, possibly from a cache (CountMemo, PromptCounter). */
export interface TextCounter {
  count(text: string): number;
}

/**
 * Counts the messages a parsed prompt sends (placeholders filled where sample data exists). Pass a
 * counter for the same tokenizer (a CountMemo) to skip messages unchanged since an earlier count.
 * `model` (default: the prompt's own) picks the chat template when it is one whose tokenizer this is.
 *
 * The one count every surface shows (status bar, hover, CodeLens, report, Compare, `prompt-lens count` and
 * `estimate`): the seam where a target turns parsed messages into billed input tokens.
 */
export function countPrompt(
  parsed: ParsedPrompt,
  tokenizer: Tokenizer,
  counter: TextCounter = tokenizer,
  model: string | undefined = parsed.settings.model,
): PromptCount {
  const messages = parsed.messages.map((m) => ({
    role: m.role,
    content: m.rendered,
    ...(m.toolCalls ? { toolCalls: m.toolCalls } : {}),
    ...(m.toolCallId === undefined ? {} : { toolCallId: m.toolCallId }),
  }));
  return {
    ...countChat(messages, tokenizer, counter, model, parsed.settings.request),
    variables: unfilledVariables(parsed),
    errors: parsed.errors,
  };
}

export type ChatCount = Omit<PromptCount, 'variables' | 'errors'>;

/**
 * Input tokens of chat messages as `model`'s server bills them: rendered through its chat template
 * when one is known for this tokenizer (special tokens matched as the engine does; declared tools
 * rendered as the template renders them), else message text plus the family's chat overhead plus the
 * declared tools and response format (see countDeclared). The one counting rule for prompts and
 * benchmark requests.
 */
export function countChat(
  messages: readonly ChatMessage[],
  tokenizer: Tokenizer,
  counter: TextCounter = tokenizer,
  model?: string,
  declared: RequestDeclarations = {},
): ChatCount {
  // Without a template, an assistant's tool calls count as their function name and arguments text (see toolCallNote).
  const counts = messages.map((m) => ({ role: m.role, tokens: counter.count(m.content) + toolCallTokens(m, counter) }));
  const contentTokens = counts.reduce((sum, m) => sum + m.tokens, 0);
  const common = { tokenizer: tokenizer.id, exact: tokenizer.exact, contentTokens };
  const declaring = declared.tools !== undefined || declared.responseFormat !== undefined;
  const extra = declaring ? countDeclared(declared, tokenizer, counter, model) : undefined;
  const calling = messages.some((m) => m.toolCalls?.length);
  const approximations = [...(extra?.approximate ?? []), ...(calling ? [toolCallNote(tokenizer)] : [])];
  const overhead = {
    ...common,
    ...(extra ? { declaredTokens: extra.tokens } : {}),
    ...(approximations.length > 0 ? { exact: false, approximations } : {}),
    inputTokens: withChatOverhead(contentTokens, counts.length, tokenizer.id) + (extra?.tokens ?? 0),
    messages: counts,
  };
  const template = templateFor(model, tokenizer);
  if (!template || messages.length === 0) return overhead;
  try {
    const tools = declared.tools ? { tools: declared.tools } : {};
    const counted = countWithTemplate(template, messages, tokenizer, counter, tools);
    return {
      ...common,
      inputTokens: counted.inputTokens,
      messages: counted.messages,
      templateTokens: counted.templateTokens,
      template: {
        ...counted.template,
        assumed: [...counted.template.assumed, ...declaredNotes(template, declared, calling)],
      },
    };
  } catch (error) {
    return {
      ...overhead,
      templateError: `${template.name}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** What a template does with the declarations, said beside its assumptions (the count is exact either way). */
function declaredNotes(template: ChatTemplate, declared: RequestDeclarations, calling: boolean): string[] {
  const notes: string[] = [];
  if (calling)
    notes.push(
      template.template.includes('tool_calls')
        ? "tool calls rendered by the model's template, arguments parsed as JSON as vLLM does"
        : 'tool calls not rendered: this template has no place for them',
    );
  if (declared.tools) {
    const rendered = template.template.includes('tools');
    notes.push(rendered ? 'tools rendered by the template' : 'tools not rendered: this template has no place for them');
  }
  if (declared.responseFormat)
    notes.push('response_format constrains decoding (vLLM, SGLang structured outputs): not in the prompt');
  return notes;
}

/** An assistant message's tool calls without a template: each function's name and arguments text. */
function toolCallTokens(message: ChatMessage, counter: TextCounter): number {
  let tokens = 0;
  for (const call of message.toolCalls ?? [])
    tokens += counter.count(call.function.name) + counter.count(call.function.arguments);
  return tokens;
}

/** Why tool calls counted without a template are approximate. */
function toolCallNote(tokenizer: Tokenizer): string {
  const openai = tokenizer.id === 'o200k_base' || tokenizer.id === 'cl100k_base';
  return `tool calls in messages counted as function name + arguments text: ${
    openai
      ? 'OpenAI publishes no rule for tool calls in the history'
      : `no published rule for how ${tokenizer.id} bills them`
  }`;
}

/** The chat template `model`'s server renders with, when it is one this tokenizer counts (else the overhead rule). */
function templateFor(model: string | undefined, tokenizer: Tokenizer): ChatTemplate | undefined {
  return tokenizer.specials ? chatTemplateFor(model, tokenizer.id) : undefined;
}

/** What a target is billed for a prompt, as compare, the CLI's estimate and the bench's prediction take it. */
export interface PromptTokens {
  /** What the API bills: message text plus chat overhead. */
  tokens: number;
  tokenizer: string;
  /** false when the target's tokenizer is approximated (see `prompt-lens tokenizers`), or `approximations` apply. */
  exact: boolean;
  /** Why the count is approximate with an exact tokenizer (declared tools, response format). */
  approximations?: string[];
}

/** A target's count of a prompt by tokenizer name (see tokenizerFor) and the model whose template its server uses. */
export type PromptTokenCounter = (tokenizer: string | undefined, model?: string) => PromptTokens;

/**
 * countPrompt's input tokens by tokenizer name (a target's tokenizer or model name, see tokenizerFor) and model (the
 * target's, see targetModelId; default the front matter's), counted once per countKey: many targets share one
 * (gpt-4o and gpt-4.1 are both o200k_base; a 2 MB chat file took 29 s when every name re-parsed it). Counts already
 * made (the editor's, by countKey) are used as they are.
 */
export function promptTokenCounter(
  parsed: ParsedPrompt,
  known: Readonly<Record<string, PromptCount>> = {},
): PromptTokenCounter {
  const counts = new Map<string, PromptTokens>();
  return (tokenizer, model = parsed.settings.model) => {
    const id = tokenizerFor(tokenizer);
    const key = countKey(id, model);
    let tokens = counts.get(key);
    if (!tokens) {
      const count = known[key] ?? countPrompt(parsed, getTokenizer(id), undefined, model);
      tokens = {
        tokens: count.inputTokens,
        tokenizer: count.tokenizer,
        exact: count.exact,
        ...(count.approximations ? { approximations: count.approximations } : {}),
      };
      counts.set(key, tokens);
    }
    return tokens;
  };
}
