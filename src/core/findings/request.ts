import type { ChatRole, ParsedPrompt, PromptMessage, SourceRange } from '../prompt/types';
import type { Tokenizer } from '../tokenize/types';

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
}

export interface PromptRequest {
  tokens: Int32Array;
  messages: RequestMessage[];
}

const ROLE_TOKEN: Record<ChatRole, number> = { system: -1, developer: -2, user: -3, assistant: -4, tool: -5 };

/** Encodes each distinct text once: workspaces repeat the same system prompt in many files. */
export class TokenMemo {
  private readonly cache = new Map<string, Int32Array>();

  constructor(
    readonly tokenizer: Tokenizer,
    private readonly maxEntries = 4096,
  ) {}

  encode(text: string): Int32Array {
    let tokens = this.cache.get(text);
    if (!tokens) {
      tokens = Int32Array.from(this.tokenizer.encode(text));
      if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(text, tokens);
    }
    return tokens;
  }
}

const isLeading = (role: ChatRole): boolean => role === 'system' || role === 'developer';

export function buildRequest(parsed: ParsedPrompt, memo: TokenMemo): PromptRequest {
  const order = parsed.messages.map((m, index) => ({ m, index }));
  order.sort((a, b) => Number(isLeading(b.m.role)) - Number(isLeading(a.m.role)) || a.index - b.index);
  const parts = order.map(({ m }) => memo.encode(m.rendered));
  const tokens = new Int32Array(parts.reduce((n, p) => n + p.length + 1, 0));
  const messages: RequestMessage[] = [];
  let at = 0;
  order.forEach(({ m, index }, i) => {
    const part = parts[i] as Int32Array;
    tokens[at++] = ROLE_TOKEN[m.role];
    tokens.set(part, at);
    messages.push({ index, role: m.role, tokenStart: at, tokenEnd: at + part.length });
    at += part.length;
  });
  return { tokens, messages };
}

/** Where in its message a request token lies; undefined for role tokens past the end. */
export function messageAtToken(request: PromptRequest, tokenIndex: number): RequestMessage | undefined {
  return request.messages.find((m) => tokenIndex >= m.tokenStart - 1 && tokenIndex <= m.tokenEnd) ?? request.messages[request.messages.length - 1];
}

/**
 * Character offset in `text` after the first `k` of its `tokens` (tokenizers here encode but do
 * not decode). Bisection on "the prefix encodes to the same first k tokens": false while the k-th
 * token is cut short, true from its end on. Exact whenever prefixes re-encode like the whole text.
 */
export function charOffsetAfterTokens(tokenizer: Tokenizer, text: string, tokens: Int32Array, k: number): number {
  if (k <= 0) return 0;
  if (k >= tokens.length) return text.length;
  const startsWithK = (c: number): boolean => {
    const head = tokenizer.encode(text.slice(0, c));
    if (head.length < k) return false;
    for (let i = 0; i < k; i++) if (head[i] !== tokens[i]) return false;
    return true;
  };
  let lo = 1;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (startsWithK(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
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
    const vars = parsed.variables.filter((v) => v.filled && v.range.start >= start && v.range.end <= end).sort((a, b) => a.range.start - b.range.start);
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
      push(v.range, renderValue(parsed.settings.sample?.[v.name]), true);
      at = v.range.end;
    }
    push({ start: at, end }, fileText.slice(at, end), false);
    this.segments = segments;
    this.exact = segments.map((s) => s.rendered).join('') === message.rendered;
  }

  /** File offset of a rendered offset; a point inside a variable's value maps to the variable. */
  toSource(renderedOffset: number): number {
    const { range, rendered } = this.message;
    if (!this.exact) return range.start + Math.round((renderedOffset / Math.max(1, rendered.length)) * (range.end - range.start));
    for (const s of this.segments) {
      if (renderedOffset <= s.renderedStart + s.rendered.length) return s.variable ? s.source.start : s.source.start + (renderedOffset - s.renderedStart);
    }
    return range.end;
  }

  /** Rendered offset of a file offset. */
  toRendered(sourceOffset: number): number {
    const { range, rendered } = this.message;
    const clamped = Math.min(Math.max(sourceOffset, range.start), range.end);
    if (!this.exact) return Math.round(((clamped - range.start) / Math.max(1, range.end - range.start)) * rendered.length);
    for (const s of this.segments) {
      if (clamped <= s.source.end) return s.variable ? s.renderedStart + (clamped > s.source.start ? s.rendered.length : 0) : s.renderedStart + (clamped - s.source.start);
    }
    return rendered.length;
  }

  /** The rendered text of a file range inside this message (variables replaced by their values). */
  renderedSlice(source: SourceRange): string {
    return this.message.rendered.slice(this.toRendered(source.start), this.toRendered(source.end));
  }
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
