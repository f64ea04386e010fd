import type { ChatRole, ParsedPrompt, PromptMessage, SourceRange } from '../prompt/types';
import type { EncodedText, TokenMemo } from './encoding';

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

export function buildRequest(parsed: ParsedPrompt, memo: TokenMemo): PromptRequest {
  const order = parsed.messages.map((m, index) => ({ m, index }));
  order.sort((a, b) => Number(isLeading(b.m.role)) - Number(isLeading(a.m.role)) || a.index - b.index);
  const parts = order.map(({ m }) => memo.encode(m.rendered));
  const tokens = new Int32Array(parts.reduce((n, p) => n + p.tokens.length + 1, 0));
  const messages: RequestMessage[] = [];
  let at = 0;
  order.forEach(({ m, index }, i) => {
    const encoded = parts[i] as EncodedText;
    tokens[at++] = ROLE_TOKEN[m.role];
    tokens.set(encoded.tokens, at);
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
 * Maps between offsets in a message's rendered text and offsets in the file. Exact when the
 * message text is the file slice with filled variables substituted; otherwise (formats that
 * re-indent, such as YAML block scalars) proportional within the message's range.
 */
export class RenderMap {
  private readonly segments: Segment[];
  readonly exact: boolean;

  constructor(
    private readonly message: PromptMessage,
    parsed: ParsedPrompt,
    fileText: string,
  ) {
    const { start, end } = message.range;
    const vars = parsed.variables
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

  /** File offset of a rendered offset; a point inside a variable's value maps to the variable. */
  toSource(renderedOffset: number): number {
    const { range, rendered } = this.message;
    if (!this.exact)
      return range.start + Math.round((renderedOffset / Math.max(1, rendered.length)) * (range.end - range.start));
    for (const s of this.segments) {
      if (renderedOffset <= s.renderedStart + s.rendered.length)
        return s.variable ? s.source.start : s.source.start + (renderedOffset - s.renderedStart);
    }
    return range.end;
  }

  /** Rendered offset of a file offset. */
  toRendered(sourceOffset: number): number {
    const { range, rendered } = this.message;
    const clamped = Math.min(Math.max(sourceOffset, range.start), range.end);
    if (!this.exact)
      return Math.round(((clamped - range.start) / Math.max(1, range.end - range.start)) * rendered.length);
    for (const s of this.segments) {
      if (clamped <= s.source.end)
        return s.variable
          ? s.renderedStart + (clamped > s.source.start ? s.rendered.length : 0)
          : s.renderedStart + (clamped - s.source.start);
    }
    return rendered.length;
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

/** 1-based line and column of an offset, as the report prints them. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}
