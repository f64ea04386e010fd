import type { TextCounter } from '../count';
import type { RequestDeclarations, ToolDefinition } from '../prompt/declarations';
import type { Tokenizer } from '../tokenize/types';

export interface DeclaredCount {
  /** Tokens the declared tools and response format add to the input (without a chat template). */
  tokens: number;
  /** Why that figure is approximate; empty when it follows a published rule. */
  approximate: string[];
}

/**
 * OpenAI's published way to count function tools: the cookbook "How to count tokens with tiktoken", section "Counting
 * tokens for chat completions with tool calls" (`num_tokens_for_tools`), which matched the API's prompt_tokens on its
 * example (101 on gpt-4o, 105 on gpt-4). Only the function start differs between the two encodings.
 */
const COOKBOOK = { propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12 };
const FUNC_INIT: Partial<Record<string, number>> = { o200k_base: 7, cl100k_base: 10 };
/** The models the cookbook checked its rule on (dated snapshots included). */
const CHECKED_MODELS = /^(gpt-4o(-mini)?|gpt-4|gpt-3\.5-turbo)(-\d{4}(-\d{2}-\d{2})?)?$/;
/** Schema keywords the cookbook's rule reads; anything else in a tool is outside it. */
const RULE_PARAMETER_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties']);
const RULE_PROPERTY_KEYS = new Set(['type', 'description', 'enum']);

/**
 * Tokens of a request's declared tools and response format where no chat template renders them: OpenAI's encodings
 * by the cookbook's rule for tools (approximate outside the models and schema shapes it covers), anything else as
 * its JSON text, marked approximate with the reason.
 */
export function countDeclared(
  declared: RequestDeclarations,
  tokenizer: Tokenizer,
  counter: TextCounter,
  model: string | undefined,
): DeclaredCount {
  let tokens = 0;
  const approximate: string[] = [];
  const tools = declared.tools ?? [];
  const funcInit = FUNC_INIT[tokenizer.id];
  if (tools.length > 0 && funcInit !== undefined) {
    tokens += cookbookToolTokens(tools, funcInit, counter);
    const id = model?.trim().toLowerCase().replace(/^.*\//, '');
    if (id === undefined || !CHECKED_MODELS.test(id))
      approximate.push(
        `tools by OpenAI's cookbook rule, which was checked on gpt-4o, gpt-4o-mini, gpt-4 and gpt-3.5-turbo only${id ? ` (not ${id})` : ''}`,
      );
    const outside = tools.flatMap(outsideRule);
    if (outside.length > 0)
      approximate.push(`tools by OpenAI's cookbook rule, which does not count ${outside.slice(0, 3).join('; ')}`);
  } else if (tools.length > 0) {
    tokens += counter.count(JSON.stringify(tools));
    approximate.push(`tools counted as their JSON text: no published rule for ${tokenizer.id}`);
  }
  const format = declared.responseFormat;
  if (format?.type === 'json_schema') {
    tokens += counter.count(JSON.stringify(format.json_schema));
    approximate.push('response_format counted as its JSON schema text: no published rule for what it adds');
  } else if (format?.type === 'json_object')
    approximate.push('response_format json_object: no published rule for what it adds; nothing counted');
  return { tokens, approximate };
}

/** The cookbook's `num_tokens_for_tools`, less the messages it adds itself. */
function cookbookToolTokens(tools: readonly ToolDefinition[], funcInit: number, counter: TextCounter): number {
  let tokens = 0;
  for (const { function: f } of tools) {
    tokens += funcInit + counter.count(`${f.name}:${trimPeriod(f.description ?? '')}`);
    const properties = propertiesOf(f.parameters);
    if (properties.length === 0) continue;
    tokens += COOKBOOK.propInit;
    for (const [name, property] of properties) {
      tokens += COOKBOOK.propKey;
      const enumValues = Array.isArray(property.enum) ? property.enum : undefined;
      if (enumValues) {
        tokens += COOKBOOK.enumInit;
        for (const item of enumValues) tokens += COOKBOOK.enumItem + counter.count(String(item));
      }
      const type = typeof property.type === 'string' ? property.type : JSON.stringify(property.type ?? '');
      const description = typeof property.description === 'string' ? property.description : '';
      tokens += counter.count(`${name}:${type}:${trimPeriod(description)}`);
    }
  }
  return tokens + COOKBOOK.funcEnd;
}

function propertiesOf(parameters: Record<string, unknown> | undefined): Array<[string, Record<string, unknown>]> {
  const properties = parameters?.properties;
  if (properties === null || typeof properties !== 'object') return [];
  return Object.entries(properties as Record<string, unknown>).map(([name, value]) => [
    name,
    value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {},
  ]);
}

/** What in a tool's schema the cookbook's rule leaves out ("get_weather.unit: items"), to say why it is approximate. */
function outsideRule({ function: f }: ToolDefinition): string[] {
  const found: string[] = [];
  for (const key of Object.keys(f.parameters ?? {})) if (!RULE_PARAMETER_KEYS.has(key)) found.push(`${f.name}: ${key}`);
  for (const [name, property] of propertiesOf(f.parameters)) {
    const extra = Object.keys(property).filter((k) => !RULE_PROPERTY_KEYS.has(k));
    if (extra.length > 0) found.push(`${f.name}.${name}: ${extra.join(', ')}`);
  }
  return found;
}

function trimPeriod(text: string): string {
  return text.endsWith('.') ? text.slice(0, -1) : text;
}
