import { Template } from '@huggingface/jinja';
import type { ChatRole, ToolCall } from '../prompt/types';
import type { ChatTemplate } from './templates';

/** A message as the template receives it (OpenAI request shape). */
export interface TemplateMessage {
  role: ChatRole;
  content: string;
  toolCalls?: readonly ToolCall[];
  toolCallId?: string;
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
    messages: messages.map(templateMessage),
    bos_token: template.bos_token,
    eos_token: template.eos_token,
    add_generation_prompt: true,
    ...(extras.tools && extras.tools.length > 0 ? { tools: extras.tools } : {}),
  });
  return { text, spans: locate(text, messages), assumed: assumptions(template) };
}

/**
 * A message as vLLM hands it to the template: an assistant's `tool_calls` with each `function.arguments` parsed from
 * its JSON text into an object (empty or missing arguments become `{}`), as vLLM's `_postprocess_messages`
 * (vllm/entrypoints/chat_utils.py) does, so templates render them with `tojson`; a tool message keeps its
 * `tool_call_id`. Arguments that are not JSON throw, as vLLM rejects such a request. (TGI differs: it replaces the
 * message by the JSON text of its tool calls — test/fixtures/captures/engine/tgi-llama-3.1-8b-tool-reply.json.)
 */
function templateMessage(m: TemplateMessage): Record<string, unknown> {
  return {
    role: m.role,
    content: m.content,
    ...(m.toolCalls && m.toolCalls.length > 0
      ? {
          tool_calls: m.toolCalls.map((call) => ({
            ...(call.id === undefined ? {} : { id: call.id }),
            type: call.type,
            function: { name: call.function.name, arguments: parsedArguments(call) },
          })),
        }
      : {}),
    ...(m.toolCallId === undefined ? {} : { tool_call_id: m.toolCallId }),
  };
}

function parsedArguments({ function: f }: ToolCall): unknown {
  if (f.arguments === '') return {};
  try {
    return JSON.parse(f.arguments) as unknown;
  } catch {
    throw new Error(`tool call ${f.name}: arguments are not JSON (vLLM rejects such a request)`);
  }
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
