import { findTags, type TemplateLanguage } from './templateLanguage';
import type { ParsedPrompt, ParseError, TemplateVariable } from './types';

export interface VariablePatterns {
  patterns: RegExp[];
  errors: ParseError[];
}

/** Compiles the user's extra patterns; an invalid one becomes a warning, not a crash. */
export function compilePatterns(extra: readonly string[] = []): VariablePatterns {
  const errors: ParseError[] = [];
  const patterns: RegExp[] = [];
  for (const source of extra) {
    try {
      patterns.push(new RegExp(source, 'g'));
    } catch (error) {
      errors.push({
        message: `variablePatterns: invalid pattern ${JSON.stringify(source)}: ${error instanceof Error ? error.message : String(error)}`,
        range: { start: 0, end: 0 },
        severity: 'warning',
      });
    }
  }
  return { patterns, errors };
}

interface Occurrence {
  name: string;
  start: number;
  end: number;
  /** The name as a lookup path into sample data; blocks (`{% %}`, sections) have none. */
  path?: string[];
  stable?: boolean;
}

function occurrences(text: string, language: TemplateLanguage): Occurrence[] {
  return findTags(text, language).map((tag) => {
    // `{{ user.name | upper }}` looks up `user.name`; Handlebars helpers (`{{#if x}}`) are kept whole.
    const expression = tag.block ? tag.inner : (tag.inner.split('|')[0]?.trim() ?? tag.inner);
    const path =
      !tag.block && /^[\p{L}_$][\p{L}\p{N}_$]*(\.[\p{L}_$][\p{L}\p{N}_$]*)*$/u.test(expression)
        ? expression.split('.')
        : undefined;
    return {
      name: expression,
      start: tag.start,
      end: tag.end,
      ...(path ? { path } : {}),
      ...(tag.stable ? { stable: true } : {}),
    };
  });
}

function lookup(sample: Record<string, unknown> | undefined, path: readonly string[] | undefined): unknown {
  if (!sample || !path) return undefined;
  let value: unknown = sample;
  for (const key of path) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

export interface Rendered {
  rendered: string;
  variables: TemplateVariable[];
}

/**
 * Finds the variables in one message's text (`offset` = where it starts in the file, or a map from
 * offsets in the text to offsets in the file where the text is not a verbatim slice) and fills
 * those the sample data has; unfilled ones stay as their literal text.
 */
export function renderVariables(
  text: string,
  offset: number | ((offsetInText: number) => number),
  language: TemplateLanguage,
  sample?: Record<string, unknown>,
): Rendered {
  const at = typeof offset === 'number' ? (i: number) => offset + i : offset;
  const variables: TemplateVariable[] = [];
  let rendered = '';
  let last = 0;
  for (const o of occurrences(text, language)) {
    const value = lookup(sample, o.path);
    const filled = value !== undefined;
    variables.push({
      name: o.name,
      range: { start: at(o.start), end: at(o.end) },
      filled,
      ...(o.stable ? { stable: true } : {}),
    });
    rendered += text.slice(last, o.start) + (filled ? asText(value) : text.slice(o.start, o.end));
    last = o.end;
  }
  return { rendered: rendered + text.slice(last), variables };
}

const LISTED_NAMES = 10;
const NAME_CHARS = 40;

/** Names of the variables no sample data filled, once each, in order of appearance. */
export function unfilledVariables(prompt: ParsedPrompt): string[] {
  return [...new Set(prompt.variables.filter((v) => !v.filled).map((v) => v.name))];
}

/**
 * Variable names for a one-line message: at most ten, each cut to 40 characters (a generated or binary file can have
 * thousands).
 */
export function listNames(names: readonly string[]): string {
  const shown = names
    .slice(0, LISTED_NAMES)
    .map((n) => (n.length > NAME_CHARS ? `${n.slice(0, NAME_CHARS - 1)}…` : n).replace(/\s+/g, ' '));
  return names.length > LISTED_NAMES ? `${shown.join(', ')} and ${names.length - LISTED_NAMES} more` : shown.join(', ');
}
