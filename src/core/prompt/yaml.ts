import { Document, isMap, isPair, isScalar, isSeq, parseDocument, type Node } from 'yaml';
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

/**
 * Block nesting (indentation levels plus compact `- - -` / `? ? ?` indicators) deeper than this is
 * refused too: the parser recurses per level as with brackets, and 1 MB of `- - - …` took 14 s to fail.
 */
export const MAX_BLOCK_NESTING = 512;

/**
 * Nodes a YAML text may have: parse time grows with them (about 20 µs each on the loaded 2-core
 * machine), so 100,000 bounds a parse to a few seconds there. Counted as lines outside block
 * scalars plus commas, an upper bound (every node needs a line or a `,` of its own; `- - -` is
 * bounded by MAX_BLOCK_NESTING): prose in a block scalar costs the parser little, and 2 MB of it
 * is about 30,000 commas.
 */
export const MAX_YAML_ITEMS = 100_000;

/** A line that starts a block scalar: it ends in `|` or `>`, with optional indicators and a comment. */
const BLOCK_SCALAR_HEADER = /(?:^|[\s:-])[|>][1-9+-]{0,2}[ \t]*(?:#.*)?\r?$/;

/**
 * One linear pass over a YAML text: `depth` over-estimates its block nesting (per line, the
 * distinct deeper indentations still open plus the compact `- `/`? `/`: ` indicators that start it;
 * text in block scalars can only raise it), `items` over-estimates its nodes (see MAX_YAML_ITEMS).
 */
export function yamlShape(text: string): { depth: number; items: number } {
  const indents: number[] = [];
  let depth = 0;
  let items = 1;
  /** Indentation of the line that opened the block scalar we are in, or -1. */
  let scalarIndent = -1;
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    for (let c = text.indexOf(',', start); c !== -1 && c < end; c = text.indexOf(',', c + 1)) items++;
    let i = start;
    while (i < end && text.charCodeAt(i) === 0x20) i++;
    const blank = i === end || text.charCodeAt(i) === 0x0d;
    const indent = i - start;
    const inScalar = scalarIndent >= 0 && (blank || indent > scalarIndent);
    if (!inScalar && !blank) {
      // Block scalar content is one node however many lines it has.
      items++;
      scalarIndent = BLOCK_SCALAR_HEADER.test(text.slice(i, end)) ? indent : -1;
    }
    if (!blank) {
      while (indents.length > 0 && (indents[indents.length - 1] as number) >= indent) indents.pop();
      indents.push(indent);
      let compact = 0;
      // `- `, `? ` and `: ` followed by more content on the same line each open a level.
      while (i + 1 < end && (text[i] === '-' || text[i] === '?' || text[i] === ':') && text[i + 1] === ' ') {
        compact++;
        i += 2;
        while (i < end && text.charCodeAt(i) === 0x20) i++;
      }
      depth = Math.max(depth, indents.length + compact);
    }
    start = end + 1;
  }
  return { depth, items };
}

export interface YamlResult {
  doc: Document;
  value: unknown;
  errors: ParseError[];
}

function refused(source: string, offset: number, message: string): YamlResult {
  return {
    doc: new Document(null),
    value: undefined,
    errors: [{ message, range: { start: offset, end: offset + source.length }, severity: 'error' }],
  };
}

/**
 * Parses YAML (or JSON) with errors mapped to ranges in the file: `offset` is where `source` starts.
 * Texts too deep or with too many nodes to parse in bounded time are refused with an error instead.
 */
export function parseYaml(source: string, offset: number): YamlResult {
  const tooDeep = nestingError(source, offset, 'YAML');
  if (tooDeep) return { doc: new Document(null), value: undefined, errors: [tooDeep] };
  const { depth, items } = yamlShape(source);
  if (depth > MAX_BLOCK_NESTING)
    return refused(source, offset, `YAML: block nesting deeper than ${MAX_BLOCK_NESTING} levels; not parsed`);
  if (items > MAX_YAML_ITEMS)
    return refused(
      source,
      offset,
      `YAML: about ${items.toLocaleString('en-US')} nodes (lines and commas), over the ${MAX_YAML_ITEMS.toLocaleString('en-US')} that are parsed; not parsed`,
    );
  // The parser's own duplicate-key check compares each key with every earlier one (80,000 keys
  // took minutes); duplicateKeyErrors does the same check with a Set.
  const doc = parseDocument(source, {
    prettyErrors: false,
    uniqueKeys: false,
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
  if (errors.length === 0) errors.push(...duplicateKeyErrors(doc, offset));
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

/**
 * `Map keys must be unique` at each repeated scalar key, as the parser's `uniqueKeys` reports it,
 * in linear time: a walk with an explicit stack (no recursion) and one Set per map.
 */
function duplicateKeyErrors(doc: Document, offset: number): ParseError[] {
  const errors: ParseError[] = [];
  const stack: unknown[] = [doc.contents];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as Node | null;
        if (isScalar(key)) {
          // The parser compares values with ===, so NaN never repeats.
          if (seen.has(key.value) && !Number.isNaN(key.value)) {
            const at = offset + (key.range?.[0] ?? 0);
            errors.push({
              message: 'YAML: Map keys must be unique',
              range: { start: at, end: at + 1 },
              severity: 'error',
            });
          }
          seen.add(key.value);
        } else stack.push(key);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) for (const item of node.items) stack.push(item);
  }
  return errors.sort((a, b) => a.range.start - b.range.start);
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
