import type { ChatRole, ParsedPrompt, PromptMessage, SourceRange, TemplateVariable } from '../prompt/types';
import { placeChunks, type EncodedChunks, type EncodedText, type TokenMemo } from './encoding';

/**
 * The request as the API sees it, tokenised: system and developer messages first, each message
 * preceded by one role token (a negative id no vocabulary uses), so prefixes only match when the
 * roles match too. The role token stands in for the per-message chat overhead.
 */
export interface RequestMessage {
  /** Index into ParsedPrompt.messages. */
  index: number;
  role: ChatRole;
  /** Token index of the message's first content token (after its role token). */
  tokenStart: number;
  tokenEnd: number;
  encoded: EncodedText;
}

export interface PromptRequest {
  tokens: Int32Array;
  messages: RequestMessage[];
}

const ROLE_TOKEN: Record<ChatRole, number> = { system: -1, developer: -2, user: -3, assistant: -4, tool: -5 };

const isLeading = (role: ChatRole): boolean => role === 'system' || role === 'developer';

/** Message indices in request order: system and developer messages first, each group in file order. */
export function requestOrder(parsed: ParsedPrompt): number[] {
  const indices = parsed.messages.map((_, index) => index);
  return [
    ...indices.filter((i) => isLeading((parsed.messages[i] as PromptMessage).role)),
    ...indices.filter((i) => !isLeading((parsed.messages[i] as PromptMessage).role)),
  ];
}

export function buildRequest(parsed: ParsedPrompt, memo: TokenMemo): PromptRequest {
  const order = requestOrder(parsed).map((index) => ({ m: parsed.messages[index] as PromptMessage, index }));
  const parts = order.map(({ m }) => memo.chunks(m.rendered));
  const tokens = new Int32Array(parts.reduce((n, p) => n + p.length + 1, 0));
  const messages: RequestMessage[] = [];
  let at = 0;
  order.forEach(({ m, index }, i) => {
    tokens[at++] = ROLE_TOKEN[m.role];
    // Each message's tokens are its stretch of the request's: one copy of a workspace's tokens, not two.
    const encoded = placeChunks(parts[i] as EncodedChunks, tokens, at);
    messages.push({ index, role: m.role, tokenStart: at, tokenEnd: at + encoded.tokens.length, encoded });
    at += encoded.tokens.length;
  });
  return { tokens, messages };
}

/** One piece of a message: literal file text, or a filled variable whose value replaces it. */
interface Segment {
  source: SourceRange;
  renderedStart: number;
  rendered: string;
  variable: boolean;
}

/**
 * Each message's filled variables (those lying within its range), sorted: one sort and a binary
 * search per message, where filtering every variable per message was quadratic in large files.
 */
export function filledVariablesByMessage(parsed: ParsedPrompt): TemplateVariable[][] {
  const filled = parsed.variables.filter((v) => v.filled).sort((a, b) => a.range.start - b.range.start);
  return parsed.messages.map(({ range }) => {
    const inside: TemplateVariable[] = [];
    for (let i = firstAtOrAfter(filled, range.start); i < filled.length; i++) {
      const v = filled[i] as TemplateVariable;
      if (v.range.start > range.end) break;
      if (v.range.end <= range.end) inside.push(v);
    }
    return inside;
  });
}

/** Index of the first variable starting at or after `offset` (variables sorted by start). */
function firstAtOrAfter(sorted: readonly TemplateVariable[], offset: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as TemplateVariable).range.start < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The last index in [0, length) for which `before(i)` holds (a prefix of the indices does), or -1. */
export function lastWhere(length: number, before: (i: number) => boolean): number {
  let lo = 0;
  let hi = length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (before(mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}

/**
 * Maps between offsets in a message's rendered text and offsets in the file. Exact when the
 * message text is the file slice with filled variables substituted; otherwise (formats that
 * re-indent, such as YAML block scalars) proportional within the message's range.
 */
export class RenderMap {
  private readonly segments: Segment[];
  readonly exact: boolean;

  /** `variables`: the message's filled variables, sorted (filledVariablesByMessage); found here when absent. */
  constructor(
    private readonly message: PromptMessage,
    parsed: ParsedPrompt,
    fileText: string,
    variables?: readonly TemplateVariable[],
  ) {
    const { start, end } = message.range;
    const vars =
      variables ??
      parsed.variables
        .filter((v) => v.filled && v.range.start >= start && v.range.end <= end)
        .sort((a, b) => a.range.start - b.range.start);
    const segments: Segment[] = [];
    let at = start;
    let renderedAt = 0;
    const push = (source: SourceRange, rendered: string, variable: boolean): void => {
      segments.push({ source, renderedStart: renderedAt, rendered, variable });
      renderedAt += rendered.length;
    };
    for (const v of vars) {
      if (v.range.start < at) continue;
      push({ start: at, end: v.range.start }, fileText.slice(at, v.range.start), false);
      push(v.range, renderValue(sampleValue(parsed.settings.sample, v.name)), true);
      at = v.range.end;
    }
    push({ start: at, end }, fileText.slice(at, end), false);
    this.segments = segments;
    this.exact = segments.map((s) => s.rendered).join('') === message.rendered;
  }

  /** One map per message of the prompt, in order. */
  static all(parsed: ParsedPrompt, fileText: string): RenderMap[] {
    const variables = filledVariablesByMessage(parsed);
    return parsed.messages.map((m, i) => new RenderMap(m, parsed, fileText, variables[i]));
  }

  /** File offset of a rendered offset; a point inside a variable's value maps to the variable. */
  toSource(renderedOffset: number): number {
    const { range, rendered } = this.message;
    if (!this.exact)
      return range.start + Math.round((renderedOffset / Math.max(1, rendered.length)) * (range.end - range.start));
    // The first segment that reaches the offset (segments are in order; a binary search).
    const i =
      lastWhere(this.segments.length, (k) => {
        const s = this.segments[k] as Segment;
        return renderedOffset > s.renderedStart + s.rendered.length;
      }) + 1;
    const s = this.segments[i];
    if (!s) return range.end;
    return s.variable ? s.source.start : s.source.start + (renderedOffset - s.renderedStart);
  }

  /** Rendered offset of a file offset. */
  toRendered(sourceOffset: number): number {
    const { range, rendered } = this.message;
    const clamped = Math.min(Math.max(sourceOffset, range.start), range.end);
    if (!this.exact)
      return Math.round(((clamped - range.start) / Math.max(1, range.end - range.start)) * rendered.length);
    const i = lastWhere(this.segments.length, (k) => clamped > (this.segments[k] as Segment).source.end) + 1;
    const s = this.segments[i];
    if (!s) return rendered.length;
    return s.variable
      ? s.renderedStart + (clamped > s.source.start ? s.rendered.length : 0)
      : s.renderedStart + (clamped - s.source.start);
  }

  /** The rendered text of a file range inside this message (variables replaced by their values). */
  renderedSlice(source: SourceRange): string {
    return this.message.rendered.slice(this.toRendered(source.start), this.toRendered(source.end));
  }
}

/** A sample value by variable name; dotted names (`user.name`) walk into nested objects. */
export function sampleValue(sample: Record<string, unknown> | undefined, name: string): unknown {
  if (sample === undefined) return undefined;
  if (name in sample) return sample[name];
  let value: unknown = sample;
  for (const key of name.split('.')) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** How a sample value appears in the rendered prompt: strings as is, anything else as JSON. */
export function renderValue(value: unknown): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** 1-based line and column of an offset, as the report prints them (one lookup; use lineIndex for many). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** lineColumn for many offsets of one text: its line starts found once, each lookup a binary search. */
export function lineIndex(text: string): (offset: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (offset) => {
    // The last line start at or before the offset; a newline at the offset itself still ends its line.
    const line = lastWhere(starts.length, (k) => (starts[k] as number) <= offset) + 1;
    // Offsets at or before 0 find line 0 or 1, whose start is 0.
    const lineStart = starts[Math.max(0, line - 1)] as number;
    return { line: Math.max(1, line), column: offset - lineStart + 1 };
  };
}
