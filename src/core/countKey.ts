import { chatTemplateForModel, type ChatTemplate } from './chat/templates';
import { TOKENIZERS_WITH_SPECIALS, type TokenizerId } from './tokenize/types';

/** The chat template `model` renders with, when its tokenizer is `tokenizer` (a tokenizer with special tokens). */
export function chatTemplateFor(model: string | undefined, tokenizer: TokenizerId): ChatTemplate | undefined {
  const template = model === undefined ? undefined : chatTemplateForModel(model);
  return template?.tokenizer === tokenizer ? template : undefined;
}

/**
 * What a count depends on besides the text: the tokenizer, and the chat template `model` renders with when that
 * tokenizer counts it (qwen2.5-* and qwen3-* share tokenizer qwen2, not their template). Counts kept per prompt
 * (the editor's, Compare's) are keyed by it. Loads no vocabulary: the extension host looks its counts up by this key
 * (compiling one there blocked it for 1.8–3.2 s while a prompt opened), so it imports nothing that can.
 */
export function countKey(tokenizer: TokenizerId, model: string | undefined): string {
  const template = TOKENIZERS_WITH_SPECIALS.has(tokenizer) ? chatTemplateFor(model, tokenizer) : undefined;
  return template ? `${tokenizer}+${template.id}` : tokenizer;
}
