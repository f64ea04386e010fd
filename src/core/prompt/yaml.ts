import { Document, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { ParseError, SourceRange } from './types';

/** Caps alias expansion so a "billion laughs" document fails fast instead of hanging. */
const MAX_ALIAS_COUNT = 100;

/**
 * Deeper `[`/`{` nesting is refused before parsing: the YAML parser recurses once per level, and
 * near the stack limit V8 can abort the whole process (not throw) when it next compiles a regex.
 */
export const MAX_NESTING = 512;

/** The deepest unclosed `[`/`{` nesting, counting brackets anywhere (so quoted text counts too: an over-estimate). */
export function bracketDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if ((c === 0x5d || c === 0x7d) && depth > 0) depth--;
  }
  return deepest;
}

/** The error for a text nested deeper than MAX_NESTING, or undefined. */
export function nestingError(text: string, offset: number, what: string): ParseError | undefined {
  if (bracketDepth(text) <= MAX_NESTING) return undefined;
  return {
    message: `${what}: nested deeper than ${MAX_NESTING} levels; not parsed`,
    range: { start: offset, end: offset + text.length },
    severity: 'error',
  };
}

export interface YamlResult {
  doc: Document;
  value: unknown;
  errors: ParseError[];
}

/** Parses YAML (or JSON) with errors mapped to ranges in the file: `offset` is where `source` starts. */
export function parseYaml(source: string, offset: number): YamlResult {
  const tooDeep = nestingError(source, offset, 'YAML');
  if (tooDeep) return { doc: new Document(null), value: undefined, errors: [tooDeep] };
  const doc = parseDocument(source, {
    prettyErrors: false,
    uniqueKeys: true,
    keepSourceTokens: false,
    logLevel: 'error',
  });
  const errors: ParseError[] = doc.errors.map((e) => ({
    message: `YAML: ${e.message.split('\n')[0]}`,
    // Errors at end of input point at the last character, so they stay inside the YAML.
    range: {
      start: offset + Math.min(e.pos[0], Math.max(0, source.length - 1)),
      end: offset + Math.min(Math.max(e.pos[1], e.pos[0] + 1), source.length),
    },
    severity: 'error',
  }));
  let value: unknown = undefined;
  if (errors.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    } catch (error) {
      errors.push({
        message: `YAML: ${error instanceof Error ? error.message : String(error)}`,
        range: { start: offset, end: offset + source.length },
        severity: 'error',
      });
    }
  }
  return { doc, value, errors };
}

/** The source range of the node at `path` in a parsed document, shifted by `offset`; undefined when absent. */
export function nodeRange(doc: Document, path: readonly PropertyKey[], offset: number): SourceRange | undefined {
  const node = doc.getIn(
    path.map((p) => (typeof p === 'number' ? p : String(p))),
    true,
  ) as { range?: [number, number, number] } | undefined;
  if (!node || typeof node !== 'object' || !node.range) return undefined;
  return { start: offset + node.range[0], end: offset + node.range[1] };
}

/** Schema failures as errors that name the field (`where.messages[0].role: …`) and point at it via `rangeOf`. */
export function schemaErrors(
  error: z.ZodError,
  where: string,
  rangeOf: (path: readonly PropertyKey[]) => SourceRange,
): ParseError[] {
  return error.issues.map((issue) => ({
    message: `${where}${issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')}: ${issue.message}`,
    range: rangeOf(issue.path),
    severity: 'error',
  }));
}
