import type { ParsedPrompt, PromptMessage } from './types';

/**
 * A parsed prompt less its messages' texts: the roles and ranges the editor's surfaces show. The analysis worker
 * answers each count with this, not the parse: a megabyte's messages (as written and as rendered) copied back to the
 * extension host on every keystroke cost both threads milliseconds for text the host never reads.
 */
export interface PromptOutline extends Omit<ParsedPrompt, 'messages'> {
  messages: Array<Omit<PromptMessage, 'text' | 'rendered'>>;
}

export function promptOutline(parsed: ParsedPrompt): PromptOutline {
  return { ...parsed, messages: parsed.messages.map(({ text: _text, rendered: _rendered, ...message }) => message) };
}
