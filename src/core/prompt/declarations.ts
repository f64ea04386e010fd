import { z } from 'zod';
import type { ParseError, SourceRange, ToolCall } from './types';

const record = z.record(z.string(), z.unknown());

/** An OpenAI function tool (`{ type: 'function', function: { name, description?, parameters? } }`). */
export const toolSchema = z
  .object({
    type: z.literal('function'),
    function: z
      .object({ name: z.string().min(1), description: z.string().optional(), parameters: record.optional() })
      .loose(),
  })
  .loose();
export type ToolDefinition = z.infer<typeof toolSchema>;

/** OpenAI's `response_format`: text, JSON mode, or a JSON schema the reply must follow. */
export const responseFormatSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }).loose(),
  z.object({ type: z.literal('json_object') }).loose(),
  z
    .object({
      type: z.literal('json_schema'),
      json_schema: z
        .object({ name: z.string().min(1), description: z.string().optional(), schema: record.optional() })
        .loose(),
    })
    .loose(),
]);
export type ResponseFormat = z.infer<typeof responseFormatSchema>;

/** What a prompt file declares besides its messages that a request sends and the model is billed for. */
export interface RequestDeclarations {
  tools?: ToolDefinition[];
  responseFormat?: ResponseFormat;
}

/**
 * The function tools of a declared `tools` list (already checked to be a list of objects with a `type`); other kinds
 * (OpenAI's built-in tools, custom grammars) are named in a warning and left out of the count.
 */
export function functionTools(
  declared: readonly unknown[],
  field: string,
  range: (index: number) => SourceRange,
  errors: ParseError[],
): ToolDefinition[] {
  const tools: ToolDefinition[] = [];
  declared.forEach((value, i) => {
    const tool = toolSchema.safeParse(value);
    if (tool.success) tools.push(tool.data);
    else
      errors.push({
        message: `${field}[${i}]: ${describe(value)} is not a function tool ({ type: "function", function: { name, description, parameters } }); not counted`,
        range: range(i),
        severity: 'warning',
      });
  });
  return tools;
}

/** A tool call in an assistant message (OpenAI: `{ id, type: 'function', function: { name, arguments } }`). */
const toolCallSchema = z
  .object({
    id: z.string().optional(),
    type: z.literal('function'),
    // OpenAI sends JSON text; vLLM also takes an object (and so do we), or nothing (an empty object).
    function: z
      .object({ name: z.string().min(1), arguments: z.union([z.string(), record, z.null()]).optional() })
      .loose(),
  })
  .loose();

/**
 * An assistant message's `tool_calls`, each checked by itself: an entry that is not an OpenAI function call is named
 * in a warning and left out of the count (the file still parses). Object arguments become their JSON text.
 */
export function toolCalls(value: unknown, field: string, range: SourceRange, errors: ParseError[]): ToolCall[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    errors.push({ message: `${field}: not a list of tool calls; not counted`, range, severity: 'warning' });
    return [];
  }
  const calls: ToolCall[] = [];
  value.forEach((entry, i) => {
    const call = toolCallSchema.safeParse(entry);
    if (!call.success) {
      errors.push({
        message: `${field}[${i}]: not a function tool call ({ type: "function", function: { name, arguments } }); not counted`,
        range,
        severity: 'warning',
      });
      return;
    }
    const { id, function: f } = call.data;
    const args = f.arguments ?? '';
    calls.push({
      ...(id === undefined ? {} : { id }),
      type: 'function',
      function: { name: f.name, arguments: typeof args === 'string' ? args : JSON.stringify(args) },
    });
  });
  return calls;
}

function describe(value: unknown): string {
  const type = value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? `a "${type.slice(0, 40)}" tool` : 'this entry';
}

/** The declarations, leaving out empty parts (no key rather than an empty list). */
export function declarations(tools: readonly ToolDefinition[], responseFormat?: ResponseFormat): RequestDeclarations {
  return {
    ...(tools.length > 0 ? { tools: [...tools] } : {}),
    ...(responseFormat && responseFormat.type !== 'text' ? { responseFormat } : {}),
  };
}
