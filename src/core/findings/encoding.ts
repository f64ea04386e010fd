import { chunkLengths } from '../tokenize/boundaries';
import type { Tokenizer } from '../tokenize/types';

/**
 * Texts encoded in chunks that start at a line start (after "\n", before a character that is
 * neither white space nor "/": o200k_base lets a punctuation piece run on through "\n/"), and long
 * lines also at boundaries.ts's safe points.
 * Tiktoken-style pre-tokenisers (o200k_base, cl100k_base, llama3) never join a piece across such a
 * point, so the chunks' tokens concatenate to the whole text's tokens (a property test checks
 * this). Chunks make two things cheap: workspaces repeat the same lines in many files, so each
 * distinct chunk is encoded once; and token index ↔ character offset lookups re-encode one chunk,
 * not the whole prefix.
 */
export interface EncodedText {
  tokens: Int32Array;
  /** Chunk starts, ascending: character offset and index of its first token. */
  chunkChars: number[];
  chunkTokens: number[];
}

const CHUNK_CHARS = 256;
/**
 * A line longer than this (minified JSON, base64, 400,000 placeholders on one line) is cut at
 * boundaries.ts's safe points too: offset lookups re-encode one chunk, so a chunk the size of the
 * file made each lookup linear and findings on such a file quadratic.
 */
const MAX_CHUNK_CHARS = 4 * CHUNK_CHARS;
/**
 * Vocabularies whose pre-tokeniser is known not to join across a line start or boundaries.ts's
 * safe points; approximations encode with o200k_base (see Tokenizer.encode). SentencePiece models
 * (Mistral, Gemma) add a dummy prefix to every encoded input, so their texts are encoded whole (and
 * offset lookups on them cost a whole message each).
 */
const SPLIT_SAFE_TOKENIZERS = new Set(['o200k_base', 'cl100k_base', 'llama3']);
const SPLIT = /\n(?=[^\s/])/g;

/** Line-start split points, grouped so that chunks hold about CHUNK_CHARS characters; long lines cut further. */
function chunkStarts(text: string, split: boolean): number[] {
  if (!split) return [0];
  const lineStarts = [0];
  // The first line start at least CHUNK_CHARS after the last one kept: the search starts there, so the
  // line starts in between (a few per chunk) are never matched.
  SPLIT.lastIndex = CHUNK_CHARS - 1;
  for (let m = SPLIT.exec(text); m; m = SPLIT.exec(text)) {
    const at = m.index + 1;
    lineStarts.push(at);
    SPLIT.lastIndex = at + CHUNK_CHARS - 1;
  }
  const starts: number[] = [];
  lineStarts.forEach((start, i) => {
    starts.push(start);
    const end = lineStarts[i + 1] ?? text.length;
    if (end - start <= MAX_CHUNK_CHARS) return;
    let at = start;
    for (const length of chunkLengths(text, start, end, CHUNK_CHARS)) {
      at += length;
      if (at < end) starts.push(at);
    }
  });
  return starts;
}

export class TokenMemo {
  /**
   * Two generations instead of a least-recently-used list: a hit costs one lookup (two when it
   * comes from the older generation, which promotes it), not a delete and a re-insert; when the
   * newer generation is full, the older one is dropped. Chunks in use stay; a workspace of unique
   * text costs no bookkeeping per chunk beyond its insertion.
   */
  // Plain arrays, not typed ones: a small typed array each is an off-heap buffer the garbage collector
  // must track and free (most of a 10,000-file scan's collection time); the request copies them anyway.
  private recent = new Map<string, readonly number[]>();
  private older = new Map<string, readonly number[]>();
  private readonly split: boolean;

  constructor(
    readonly tokenizer: Tokenizer,
    private readonly maxChunks = 1 << 17,
  ) {
    this.split = SPLIT_SAFE_TOKENIZERS.has(tokenizer.id) || !tokenizer.exact;
  }

  private encodeChunk(text: string): readonly number[] {
    let tokens = this.recent.get(text);
    if (tokens) return tokens;
    tokens = this.older.get(text) ?? this.tokenizer.encode(text);
    if (this.recent.size >= this.maxChunks) {
      this.older = this.recent;
      this.recent = new Map();
    }
    this.recent.set(text, tokens);
    return tokens;
  }

  /** `text`'s chunks and their tokens (the memo's own arrays: read them, never write). */
  chunks(text: string): EncodedChunks {
    const chunkChars = chunkStarts(text, this.split);
    const parts = chunkChars.map((start, i) => this.encodeChunk(text.slice(start, chunkChars[i + 1] ?? text.length)));
    return { chunkChars, parts, length: parts.reduce((n, p) => n + p.length, 0) };
  }

  encode(text: string): EncodedText {
    const chunks = this.chunks(text);
    return placeChunks(chunks, new Int32Array(chunks.length), 0);
  }
}

/** A text cut into chunks (see EncodedText), each with its tokens; `length` is their total. */
export interface EncodedChunks {
  chunkChars: number[];
  parts: ReadonlyArray<readonly number[]>;
  length: number;
}

/**
 * Copies the chunks' tokens into `into` from `at` on; the EncodedText's tokens are that stretch of `into` (a view,
 * not a copy: a request's messages share its token array).
 */
export function placeChunks({ chunkChars, parts, length }: EncodedChunks, into: Int32Array, at: number): EncodedText {
  const chunkTokens: number[] = [];
  let offset = 0;
  for (const p of parts) {
    chunkTokens.push(offset);
    into.set(p, at + offset);
    offset += p.length;
  }
  return { tokens: into.subarray(at, at + length), chunkChars, chunkTokens };
}

/** Index of the last chunk whose start (in `starts`) is ≤ value. */
function chunkAt(starts: number[], value: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((starts[mid] as number) <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Character offset after the first `k` tokens (tokenizers here encode but do not decode):
 * bisection, inside one chunk, on "this prefix encodes to the same first tokens" — false while
 * the k-th token is cut short, true from its end on.
 */
export function charOffsetAfterTokens(
  tokenizer: Tokenizer,
  text: string,
  encoded: EncodedText,
  k: number,
  memo?: OffsetMemo,
): number {
  if (k <= 0) return 0;
  if (k >= encoded.tokens.length) return text.length;
  const c = chunkAt(encoded.chunkTokens, k);
  const charStart = encoded.chunkChars[c] as number;
  const local = k - (encoded.chunkTokens[c] as number);
  if (local === 0) return charStart;
  const chunk = text.slice(charStart, encoded.chunkChars[c + 1] ?? text.length);
  const find = () => offsetInChunk(tokenizer, chunk, encoded.tokens.subarray(encoded.chunkTokens[c] as number, k));
  if (!memo) return charStart + find();
  // A chunk's tokens follow from its text, so the answer does too: files sharing a system prompt
  // (thousands in a large workspace) ask the same question of the same chunk.
  const key = `${local}:${chunk}`;
  let offset = memo.get(key);
  if (offset === undefined) {
    if (memo.size >= MAX_MEMO_OFFSETS) memo.clear();
    memo.set(key, (offset = find()));
  }
  return charStart + offset;
}

/** charOffsetAfterTokens' answers by chunk text and tokens into it. */
export type OffsetMemo = Map<string, number>;
const MAX_MEMO_OFFSETS = 1 << 16;

/** Characters of `chunk` that its first `expected.length` tokens (`expected`) take. */
function offsetInChunk(tokenizer: Tokenizer, chunk: string, expected: Int32Array): number {
  const local = expected.length;
  const startsWithExpected = (end: number): boolean => {
    const head = tokenizer.encode(chunk.slice(0, end));
    if (head.length < local) return false;
    for (let i = 0; i < local; i++) if (head[i] !== expected[i]) return false;
    return true;
  };
  let lo = 1;
  let hi = chunk.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (startsWithExpected(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Number of tokens that the text before `charOffset` takes (counting a token cut there as one). */
export function tokensBefore(tokenizer: Tokenizer, text: string, encoded: EncodedText, charOffset: number): number {
  const c = chunkAt(encoded.chunkChars, charOffset);
  const charStart = encoded.chunkChars[c] as number;
  // countBase: the ids are the base encoding's, so an approximation's scaled count would not match them.
  return (encoded.chunkTokens[c] as number) + tokenizer.countBase(text.slice(charStart, charOffset));
}
