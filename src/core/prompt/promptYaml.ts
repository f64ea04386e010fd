import { z } from 'zod';
import { buildPrompt, literalBlockLocator, rawSection, verbatimOffset, type Section } from './build';
import { templateLanguage } from './templateLanguage';
import { declarations, responseFormatSchema, type ResponseFormat } from './declarations';
import type { ParseError, ParsedPrompt, SourceRange } from './types';
import { nodeRange, parseYaml, schemaErrors } from './yaml';

const Role = z.enum(['system', 'developer', 'user', 'assistant', 'tool']);

/** GitHub prompt file (`.prompt.yml`): `messages`, `model`, `testData` (the first case fills variables). */
const PromptYaml = z
  .object({
    model: z.string().optional(),
    messages: z.array(z.object({ role: Role, content: z.string() }).loose()).min(1),
    testData: z.array(z.record(z.string(), z.unknown())).optional(),
    // GitHub Models: `responseFormat: json_schema` with the schema in `jsonSchema` (JSON text, or YAML written out).
    responseFormat: z.enum(['text', 'json_object', 'json_schema']).optional(),
    jsonSchema: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  })
  .loose();

export function parsePromptYaml(text: string, userPatterns: readonly RegExp[]): ParsedPrompt {
  // GitHub Models substitutes `{{name}}` anywhere in a message's content.
  const language = templateLanguage('github-models', userPatterns);
  const whole = { start: 0, end: text.length };
  const yaml = parseYaml(text, 0);
  if (yaml.errors.length > 0) return buildPrompt('prompt-yaml', [rawSection(text)], {}, yaml.errors, language);
  const parsed = PromptYaml.safeParse(yaml.value ?? {});
  if (!parsed.success) {
    const errors = schemaErrors(parsed.error, '.prompt.yml', (path) => nodeRange(yaml.doc, path, 0) ?? whole);
    return buildPrompt('prompt-yaml', [rawSection(text)], {}, errors, language);
  }
  const { model, messages, testData, responseFormat, jsonSchema } = parsed.data;
  const sections: Section[] = messages.map((m, i) => {
    const range = nodeRange(yaml.doc, ['messages', i, 'content'], 0) ?? whole;
    const textOffset = verbatimOffset(text, range, m.content);
    if (textOffset !== undefined) return { role: m.role, text: m.content, range, textOffset };
    // A `|` block is re-indented: variables are still placed exactly, line by line.
    const locate = literalBlockLocator(text, range, m.content);
    return { role: m.role, text: m.content, range, ...(locate ? { locate } : {}) };
  });
  const sample = testData?.[0];
  const errors: ParseError[] = [];
  const format = responseFormatOf(responseFormat, jsonSchema, nodeRange(yaml.doc, ['jsonSchema'], 0) ?? whole, errors);
  const request = declarations([], format);
  return buildPrompt(
    'prompt-yaml',
    sections,
    {
      ...(model ? { model } : {}),
      ...(sample ? { sample } : {}),
      ...(Object.keys(request).length > 0 ? { request } : {}),
    },
    errors,
    language,
  );
}

/** `responseFormat` + `jsonSchema` as the request's `response_format`; a schema that does not read is an error. */
function responseFormatOf(
  kind: 'text' | 'json_object' | 'json_schema' | undefined,
  jsonSchema: string | Record<string, unknown> | undefined,
  range: SourceRange,
  errors: ParseError[],
): ResponseFormat | undefined {
  if (kind !== 'json_schema') return kind ? { type: kind } : undefined;
  let value: unknown = jsonSchema;
  if (typeof jsonSchema === 'string')
    try {
      value = JSON.parse(jsonSchema);
    } catch (error) {
      errors.push({
        message: `jsonSchema: not JSON (${(error as Error).message}); not counted`,
        range,
        severity: 'warning',
      });
      return undefined;
    }
  const format = responseFormatSchema.safeParse({ type: 'json_schema', json_schema: value });
  if (format.success) return format.data;
  errors.push({
    message: 'jsonSchema: responseFormat json_schema needs a jsonSchema with a `name` and a `schema`; not counted',
    range,
    severity: 'warning',
  });
  return undefined;
}
