import { Template } from '@huggingface/jinja';
import type { ChatRole } from '../prompt/types';
import type { ChatTemplate } from './templates';

/** A message as the template receives it (OpenAI request shape). */
export interface TemplateMessage {
  role: ChatRole;
  content: string;
}

/** What a request declares besides its messages, rendered the way the template renders it. */
export interface TemplateExtras {
  /** OpenAI-shaped tool definitions (`{ type: 'function', function: { name, description, parameters } }`). */
  tools?: readonly unknown[];
}

export interface RenderedChat {
  /** The prompt the engine tokenizes. */
  text: string;
  /** Where each message's text landed in `text` (as the template wrote it, e.g. trimmed); undefined if left out. */
  spans: Array<{ start: number; end: number } | undefined>;
  /** Template arguments this render assumed, in words (for hovers and notes). */
  assumed: string[];
}

const compiled = new Map<string, Template>();

/**
 * Renders messages through a model's chat template as a serving engine does: add_generation_prompt
 * true, the tokenizer's bos/eos strings, tools when given, and no date_string or enable_thinking,
 * so each template's own default applies (vLLM passes neither unless the request asks). Throws the
 * template's own error (e.g. Gemma's "roles must alternate") for conversations it rejects.
 */
export function renderChat(
  template: ChatTemplate,
  messages: readonly TemplateMessage[],
  extras: TemplateExtras = {},
): RenderedChat {
  let compiledTemplate = compiled.get(template.id);
  if (!compiledTemplate) {
    compiledTemplate = new Template(template.template);
    compiled.set(template.id, compiledTemplate);
  }
  const text = compiledTemplate.render({
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    bos_token: template.bos_token,
    eos_token: template.eos_token,
    add_generation_prompt: true,
    ...(extras.tools && extras.tools.length > 0 ? { tools: extras.tools } : {}),
  });
  return { text, spans: locate(text, messages), assumed: assumptions(template) };
}

/** Each message's text in order, found as written or trimmed (Llama's and Gemma's templates trim). */
function locate(text: string, messages: readonly TemplateMessage[]): RenderedChat['spans'] {
  let from = 0;
  return messages.map((m) => {
    for (const candidate of [m.content, m.content.trim()]) {
      if (candidate.length === 0) continue;
      const at = text.indexOf(candidate, from);
      if (at >= 0) {
        from = at + candidate.length;
        return { start: at, end: from };
      }
    }
    return undefined;
  });
}

/** The arguments the render assumed where the template reads them. */
function assumptions(template: ChatTemplate): string[] {
  const assumed = ['add_generation_prompt=true'];
  if (template.template.includes('date_string')) assumed.push("date_string unset (the template's default date)");
  if (template.template.includes('enable_thinking')) assumed.push('enable_thinking unset (thinking on)');
  if (template.template.includes('strftime_now')) assumed.push("the current date (the template's strftime_now)");
  if (template.template.includes('reasoning_effort')) assumed.push('reasoning_effort unset (medium)');
  if (template.prepend_scheme === 'first')
    assumed.push("the server's tokenizer.json adds no ▁ after a control token (as mistral-common tokenizes)");
  return assumed;
}
