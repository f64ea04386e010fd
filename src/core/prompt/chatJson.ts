import { findNodeAtLocation, parseTree, visit } from 'jsonc-parser';
import { z } from 'zod';
import { buildPrompt, errorAt, rawSection, verbatimOffset, type Section } from './build';
import {
  declarations,
  functionTools,
  responseFormatSchema,
  toolCalls,
  type RequestDeclarations,
  type ResponseFormat,
} from './declarations';
import type { ParseError, ParsedPrompt, SourceRange } from './types';
import { templateLanguage } from './templateLanguage';
import { nestingError, schemaErrors } from './yaml';

const Part = z.union([
  z.object({ type: z.literal('text'), text: z.string() }).loose(),
  z.object({ type: z.string() }).loose(),
]);
const Message = z
  .object({
    role: z.enum(['system', 'developer', 'user', 'assistant', 'tool']),
    content: z.union([z.string(), z.array(Part), z.null()]).optional(),
    tool_calls: z.unknown().optional(),
    tool_call_id: z.unknown().optional(),
  })
  .loose();
const ChatRequest = z
  .object({
    messages: z.array(Message),
    model: z.string().optional(),
    tools: z.array(z.object({ type: z.string() }).loose()).optional(),
    response_format: responseFormatSchema.optional(),
  })
  .loose();
const BareMessages = z.array(Message);

/** OpenAI-shaped chat JSON: `{ "messages": [...] }` or a bare array; content may be a string or parts. */
export function parseChatJson(text: string, userPatterns: readonly RegExp[]): ParsedPrompt {
  const language = templateLanguage('generic', userPatterns);
  const whole = { start: 0, end: text.length };
  const tooDeep = nestingError(text, 0, 'JSON');
  if (tooDeep) return buildPrompt('chat-json', [rawSection(text)], {}, [tooDeep], language);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return buildPrompt('chat-json', [rawSection(text)], {}, [jsonError(error, text)], language);
  }
  // Picking the schema by shape (rather than a union) keeps errors specific: `messages[0].role: …`.
  const parsed = Array.isArray(value) ? BareMessages.safeParse(value) : ChatRequest.safeParse(value);
  if (!parsed.success) {
    // Only an invalid file pays for a full syntax tree, to point at the field at fault.
    const tree = parseTree(text);
    const rangeOf = (path: readonly PropertyKey[]): SourceRange => {
      const node = tree && findNodeAtLocation(tree, path as Array<string | number>);
      return node ? { start: node.offset, end: node.offset + node.length } : whole;
    };
    return buildPrompt('chat-json', [rawSection(text)], {}, schemaErrors(parsed.error, 'chat JSON', rangeOf), language);
  }

  const located = messageRanges(text, Array.isArray(parsed.data));
  const messages = Array.isArray(parsed.data) ? parsed.data : parsed.data.messages;
  const model = Array.isArray(parsed.data) ? undefined : parsed.data.model;
  const errors: ParseError[] = [];
  const sections: Section[] = messages.map((m, i) => {
    const range = located[i] ?? whole;
    const parts =
      typeof m.content === 'string'
        ? [m.content]
        : (m.content ?? []).flatMap((p) => ('text' in p && typeof p.text === 'string' ? [p.text] : []));
    const skipped = Array.isArray(m.content) ? m.content.length - parts.length : 0;
    if (skipped > 0)
      errors.push(
        errorAt(
          `messages[${i}]: ${skipped} non-text content part(s) (images, audio) are not counted`,
          range,
          'warning',
        ),
      );
    // Tool calls are counted with their message (see countChat); the legacy `function_call` is not.
    const calls = m.role === 'assistant' ? toolCalls(m.tool_calls, `messages[${i}].tool_calls`, range, errors) : [];
    if (m.role !== 'assistant' && m.tool_calls !== undefined)
      errors.push(errorAt(`messages[${i}]: tool_calls on a ${m.role} message are not counted`, range, 'warning'));
    if ('function_call' in m)
      errors.push(
        errorAt(`messages[${i}]: function_call (deprecated; use tool_calls) is not counted`, range, 'warning'),
      );
    const content = parts.join('');
    const textOffset = parts.length === 1 ? verbatimOffset(text, range, content) : undefined;
    return {
      role: m.role,
      text: content,
      range,
      ...(textOffset === undefined ? {} : { textOffset }),
      ...(calls.length > 0 ? { toolCalls: calls } : {}),
      ...(m.role === 'tool' && typeof m.tool_call_id === 'string' ? { toolCallId: m.tool_call_id } : {}),
    };
  });
  const request = Array.isArray(parsed.data) ? {} : requestOf(parsed.data, text, errors);
  const settings = { ...(model ? { model } : {}), ...(Object.keys(request).length > 0 ? { request } : {}) };
  return buildPrompt('chat-json', sections, settings, errors, language);
}

/** The request's `tools` (function tools; others named in a warning) and `response_format`. */
function requestOf(
  data: { tools?: unknown[] | undefined; response_format?: ResponseFormat | undefined },
  text: string,
  errors: ParseError[],
): RequestDeclarations {
  if (!data.tools && !data.response_format) return {};
  // Only a file that declares them pays for a syntax tree, to point at a tool left out.
  const tree = data.tools?.length ? parseTree(text) : undefined;
  const at = (i: number): SourceRange => {
    const node = tree && findNodeAtLocation(tree, ['tools', i]);
    return node ? { start: node.offset, end: node.offset + node.length } : { start: 0, end: text.length };
  };
  return declarations(functionTools(data.tools ?? [], 'tools', at, errors), data.response_format);
}

/**
 * File ranges of the message list's elements (the top-level array, or the top-level object's last
 * `messages`, as JSON.parse keeps the last), from one pass of jsonc-parser's scanner: linear, where a
 * syntax tree of a 2 MB file takes seconds and the YAML parser's took minutes.
 */
function messageRanges(text: string, bare: boolean): SourceRange[] {
  let ranges: SourceRange[] = [];
  let depth = 0;
  /** Depth of the list's elements. */
  let elements = bare ? 1 : -1;
  let key: string | undefined;
  let start = 0;
  const open = (offset: number): void => {
    if (depth === elements) start = offset;
    depth++;
  };
  const close = (offset: number, length: number): void => {
    depth--;
    if (depth === elements) ranges.push({ start, end: offset + length });
  };
  visit(text, {
    onObjectBegin: open,
    onObjectEnd: close,
    onObjectProperty: (property) => {
      if (depth === 1) key = property;
    },
    onArrayBegin: (offset) => {
      if (!bare && depth === 1 && key === 'messages') {
        elements = 2;
        ranges = [];
      }
      open(offset);
    },
    onArrayEnd: close,
    onLiteralValue: (_value, offset, length) => {
      if (depth === elements) ranges.push({ start: offset, end: offset + length });
    },
  });
  return ranges;
}

/** Where Node's JSON.parse message gives "position N", the error points there; else at the whole file. */
function jsonError(error: unknown, text: string): ParseError {
  // Node quotes the offending text, newlines included: diagnostics and CLI lines need one line.
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ');
  const position = /position (\d+)/.exec(message)?.[1];
  if (position === undefined) return errorAt(`JSON: ${message}`, { start: 0, end: text.length });
  const at = Math.min(Number(position), text.length);
  return errorAt(`JSON: ${message}`, { start: at, end: Math.min(at + 1, text.length) });
}
