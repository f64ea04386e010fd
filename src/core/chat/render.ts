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
    const span = firstOccurrence(text, m.content, from);
    if (span) from = span.end;
    return span;
  });
}

/**
 * `content`'s first occurrence in `text` from `from` as written, else trimmed. The trimmed text is looked for first:
 * an as-written occurrence at p holds the trimmed text at p + lead, so none lies before q − lead (q: the trimmed
 * text's first occurrence), and a long message the template trimmed is placed without a failed search for its
 * as-written text through the rest of the prompt.
 */
function firstOccurrence(text: string, content: string, from: number): { start: number; end: number } | undefined {
  const trimmed = content.trim();
  if (trimmed === content || trimmed.length === 0) {
    const at = content.length === 0 ? -1 : indexOf(text, content, from);
    return at < 0 ? undefined : { start: at, end: at + content.length };
  }
  const q = indexOf(text, trimmed, from);
  if (q < 0) return undefined;
  const earliest = Math.max(from, q - (content.length - content.trimStart().length));
  // A later as-written occurrence needs a trimmed one after q, which fits only if the rest of the text is long enough.
  const asWritten = occursAt(text, content, earliest)
    ? earliest
    : text.length - (q + 1) >= trimmed.length
      ? indexOf(text, content, earliest + 1)
      : -1;
  return asWritten >= 0 ? { start: asWritten, end: asWritten + content.length } : { start: q, end: q + trimmed.length };
}

/**
 * `text.indexOf(needle, from)`, a long needle checked where its first characters are: string equality is a memory
 * compare, 0.2 ms over a megabyte here against 1.0–1.3 ms for `indexOf`'s or `startsWith`'s character loop. After two
 * false starts `indexOf` takes over, so a text of repeats costs what it did.
 */
function indexOf(text: string, needle: string, from: number): number {
  if (needle.length < LONG_NEEDLE) return text.indexOf(needle, from);
  const head = needle.slice(0, 64);
  let at = from;
  for (let tries = 0; tries < 2; tries++, at++) {
    at = text.indexOf(head, at);
    if (at < 0 || occursAt(text, needle, at)) return at;
  }
  return text.indexOf(needle, at);
}

const LONG_NEEDLE = 4096;

function occursAt(text: string, needle: string, at: number): boolean {
  return text.slice(at, at + needle.length) === needle;
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
