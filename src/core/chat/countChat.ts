import type { TextCounter } from '../count';
import type { ChatRole } from '../prompt/types';
import type { Tokenizer } from '../tokenize/types';
import { renderChat, type TemplateExtras, type TemplateMessage } from './render';
import { countRendered } from './specialTokens';
import { templateSpecials, type ChatTemplate } from './templates';

export interface TemplateCount {
  /** What the engine tokenizes and bills: the whole rendered prompt. */
  inputTokens: number;
  /** Tokens of each message's text as the template placed it (0 when the template left it out). */
  messages: Array<{ role: ChatRole; tokens: number }>;
  /** inputTokens minus the messages' tokens: role markers, default system prompts, dates, tool schemas. */
  templateTokens: number;
  template: { id: string; name: string; source: string; assumed: string[] };
}

/**
 * Counts a chat as a self-hosted engine bills it: rendered through the model's template, then
 * tokenized with its special tokens recognised. `counter` memoises the runs between special tokens
 * (most are a message's text plus a line break), so an edited prompt re-tokenises little.
 */
export function countWithTemplate(
  template: ChatTemplate,
  messages: readonly TemplateMessage[],
  tokenizer: Tokenizer,
  counter: TextCounter = tokenizer,
  extras: TemplateExtras = {},
): TemplateCount {
  const rendered = renderChat(template, messages, extras);
  const specials = templateSpecials(template);
  const rules = { ...(specials ? { specials } : {}), prependFirst: template.prepend_scheme === 'first' };
  const inputTokens = countRendered(rendered.text, tokenizer, counter, rules);
  const perMessage = messages.map((m, i) => {
    const span = rendered.spans[i];
    return {
      role: m.role,
      tokens: span ? countRendered(rendered.text.slice(span.start, span.end), tokenizer, counter, rules) : 0,
    };
  });
  return {
    inputTokens,
    messages: perMessage,
    templateTokens: inputTokens - perMessage.reduce((sum, m) => sum + m.tokens, 0),
    template: { id: template.id, name: template.name, source: template.source, assumed: rendered.assumed },
  };
}
