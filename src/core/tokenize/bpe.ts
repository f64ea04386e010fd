import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import { asciiPieceEnd, type PieceEnd } from './asciiSplit';
import { isSafeBoundary } from './boundaries';
import type { Chunk, ExactTokenizerId, Tokenizer } from './types';

/** Pieces up to this many bytes merge by a linear scan (fastest when short); longer ones use a heap. */
const LINEAR_MERGE_MAX = 48;
/** Merge results kept per encoder; the cache is emptied when full (cheaper than LRU bookkeeping). */
const CACHE_ENTRIES = 100_000;

/**
 * Byte-level BPE as tiktoken does it: split by the pattern, look each piece up whole, else merge its
 * UTF-8 bytes lowest rank first (leftmost on ties). It reads gpt-tokenizer's rank tables but not its
 * encoder, whose byte lookup decodes with a BOM-stripping TextDecoder (gpt-tokenizer 4.0.0: every
 * token that starts with U+FEFF is unreachable and `"\uFEFFusing"` merges as `"using"`), which merges
 * in quadratic time (a 200,000-letter word took 30 s) and which cannot report chunk counts in the
 * counting pass. See docs/tokenization.md, "Engine and exactness".
 */
export class BytePairEncoder {
  /** Tokens whose bytes are valid UTF-8, by their text (U+FEFF kept). */
  private readonly textRanks = new Map<string, number>();
  /** The other tokens (parts of a character), by their bytes as a Latin-1 string. */
  private readonly byteRanks = new Map<string, number>();
  private readonly cache = new Map<string, number[]>();
  private readonly asciiEnd: PieceEnd | undefined;

  constructor(
    ranks: RawBytePairRanks,
    private readonly split: RegExp,
  ) {
    this.asciiEnd = asciiPieceEnd(split);
    const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    ranks.forEach((token, rank) => {
      if (typeof token === 'string') {
        this.textRanks.set(token, rank);
        return;
      }
      const bytes = Uint8Array.from(token);
      try {
        this.textRanks.set(utf8.decode(bytes), rank);
      } catch {
        this.byteRanks.set(String.fromCharCode(...bytes), rank);
      }
    });
  }

  count(text: string): number {
    return this.countChunks(text, Infinity)[0]?.tokens ?? 0;
  }

  // Stryker disable next-line all: only mutation testing calls it (test/unit/setup/mutation.mjs); counts never do
  clearCache(): void {
    this.cache.clear();
  }

  encode(text: string): number[] {
    const ids: number[] = [];
    for (let at = 0; at < text.length;) {
      const end = this.pieceEnd(text, at);
      const piece = text.slice(at, end);
      at = end;
      const rank = this.textRanks.get(piece);
      if (rank !== undefined) ids.push(rank);
      else for (const id of this.pieceIds(piece)) ids.push(id);
    }
    return ids;
  }

  /**
   * Counts `text` and, in the same pass, cuts it into chunks of at least `target` UTF-16 units at
   * safe boundaries (see boundaries.ts) with each chunk's count: what incremental counting keeps.
   */
  countChunks(text: string, target: number): Chunk[] {
    const chunks: Chunk[] = [];
    let start = 0;
    let tokens = 0;
    for (let at = 0; at < text.length;) {
      const end = this.pieceEnd(text, at);
      tokens += this.pieceCount(text.slice(at, end));
      at = end;
      if (end - start >= target && end < text.length && isSafeBoundary(text, end)) {
        chunks.push({ length: end - start, tokens });
        start = end;
        tokens = 0;
      }
    }
    if (text.length > start) chunks.push({ length: text.length - start, tokens });
    return chunks;
  }

  /**
   * End of the piece (pre-token) that starts at `at`: by the pattern's ASCII path when it has one and
   * can tell, else by the regular expression. Text the pattern leaves between two matches is a piece
   * too (Hugging Face's "isolated" splitting; the tiktoken patterns leave none).
   */
  private pieceEnd(text: string, at: number): number {
    const fast = this.asciiEnd?.(text, at) ?? -1;
    if (fast >= 0) return fast;
    const split = this.split;
    split.lastIndex = at;
    const match = split.exec(text);
    if (!match) return text.length;
    if (match.index > at) return match.index;
    if (match[0] === '') throw new Error(`split pattern ${split.source} matched empty text`);
    return split.lastIndex;
  }

  private pieceCount(piece: string): number {
    return this.textRanks.has(piece) ? 1 : this.pieceIds(piece).length;
  }

  private pieceIds(piece: string): number[] {
    let ids = this.cache.get(piece);
    if (ids) return ids;
    // tiktoken receives UTF-8, where a lone surrogate has become U+FFFD.
    const text = LONE_SURROGATE.test(piece) ? piece.replace(LONE_SURROGATES, '\uFFFD') : piece;
    const whole = this.textRanks.get(text);
    ids = whole !== undefined ? [whole] : this.merge(text);
    // Stryker disable next-line all: the cache's bound changes memory, not ids (a piece not cached is merged again).
    if (this.cache.size >= CACHE_ENTRIES) this.cache.clear();
    this.cache.set(piece, ids);
    return ids;
  }

  /** BPE over the UTF-8 bytes of a well-formed `text` that is not itself a token. */
  private merge(text: string): number[] {
    const bytes = utf8Bytes(text);
    const rank = (from: number, to: number): number => this.rankOf(text, bytes, from, to);
    // Stryker disable next-line all: which loop merges is speed, not ids (tokenizeEngines.test.ts checks both loops).
    const starts = bytes.length <= LINEAR_MERGE_MAX ? mergeLinear(bytes.length, rank) : mergeHeap(bytes.length, rank);
    const ids = new Array<number>(starts.length - 1);
    for (let i = 0; i + 1 < starts.length; i++) ids[i] = rank(starts[i] as number, starts[i + 1] as number);
    return ids;
  }

  /** Rank of bytes [from, to) of `text`; Infinity when they are no token. */
  private rankOf(text: string, bytes: Utf8Bytes, from: number, to: number): number {
    const a = bytes.unitAt[from] as number;
    const b = bytes.unitAt[to] as number;
    // Whole characters are valid UTF-8, so only textRanks can hold them; split ones only byteRanks.
    const rank =
      a >= 0 && b >= 0 ? this.textRanks.get(text.slice(a, b)) : this.byteRanks.get(latin1(bytes).slice(from, to));
    return rank ?? Infinity;
  }
}

interface Utf8Bytes {
  bytes: Uint8Array;
  length: number;
  /** For each byte offset (and the end): the UTF-16 offset when a character starts there, else -1. */
  unitAt: Int32Array;
  /** The bytes as a Latin-1 string (one character per byte), made on first need. */
  latin1?: string;
}

function latin1(bytes: Utf8Bytes): string {
  if (bytes.latin1 === undefined) {
    let text = '';
    // In blocks: spreading a long array into one call would overflow the stack.
    for (let i = 0; i < bytes.length; i += 4096)
      text += String.fromCharCode.apply(null, Array.from(bytes.bytes.subarray(i, i + 4096)));
    bytes.latin1 = text;
  }
  return bytes.latin1;
}

const encoder = new TextEncoder();
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

function utf8Bytes(text: string): Utf8Bytes {
  const bytes = encoder.encode(text);
  const unitAt = new Int32Array(bytes.length + 1).fill(-1);
  let unit = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    if ((byte & 0xc0) === 0x80) continue;
    unitAt[i] = unit;
    unit += byte >= 0xf0 ? 2 : 1;
  }
  unitAt[bytes.length] = unit;
  return { bytes, length: bytes.length, unitAt };
}

type RankOf = (from: number, to: number) => number;

/**
 * tiktoken's merge loop: repeatedly join the adjacent pair with the lowest rank (the leftmost of
 * equals) until no pair is a token. Returns the part boundaries, 0 … n.
 */
function mergeLinear(n: number, rankOf: RankOf): number[] {
  const starts: number[] = [];
  const ranks: number[] = [];
  for (let i = 0; i <= n; i++) {
    starts.push(i);
    ranks.push(i + 2 <= n ? rankOf(i, i + 2) : Infinity);
  }
  for (;;) {
    let min = Infinity;
    let at = -1;
    for (let i = 0; i + 1 < ranks.length; i++) {
      if ((ranks[i] as number) < min) {
        min = ranks[i] as number;
        at = i;
      }
    }
    if (at < 0) return starts;
    starts.splice(at + 1, 1);
    ranks.splice(at + 1, 1);
    ranks[at] = at + 2 < starts.length ? rankOf(starts[at] as number, starts[at + 2] as number) : Infinity;
    if (at > 0) ranks[at - 1] = rankOf(starts[at - 1] as number, starts[at + 1] as number);
  }
}

/**
 * The same merges in O(n log n) for long pieces: parts in a linked list, candidate pairs in a heap
 * keyed by (rank, position) so the leftmost lowest rank comes first; stale entries are skipped.
 */
function mergeHeap(n: number, rankOf: RankOf): number[] {
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n + 1);
  const rank = new Float64Array(n + 1);
  const alive = new Uint8Array(n + 1).fill(1);
  const heap = new MinHeap(n);
  const POSITIONS = 2 ** 32; // n < 2^32, and rank * 2^32 + position stays an exact double for ranks < 2^21
  const push = (at: number): void => {
    if (rank[at] !== Infinity) heap.push((rank[at] as number) * POSITIONS + at);
  };
  for (let i = 0; i <= n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    rank[i] = i + 2 <= n ? rankOf(i, i + 2) : Infinity;
    push(i);
  }
  while (heap.size > 0) {
    const key = heap.pop();
    const at = key % POSITIONS;
    if (!alive[at] || rank[at] !== (key - at) / POSITIONS) continue;
    const gone = next[at] as number;
    alive[gone] = 0;
    next[at] = next[gone] as number;
    prev[next[at] as number] = at;
    const after = next[next[at] as number];
    rank[at] = (next[at] as number) < n && after !== undefined ? rankOf(at, after) : Infinity;
    push(at);
    const before = prev[at] as number;
    if (before >= 0) {
      rank[before] = rankOf(before, next[at] as number);
      push(before);
    }
  }
  const starts: number[] = [];
  for (let i = 0; i <= n; i = next[i] as number) {
    starts.push(i);
    if (i === n) break;
  }
  return starts;
}

class MinHeap {
  private items: Float64Array;
  size = 0;

  constructor(capacity: number) {
    // Stryker disable next-line MethodExpression: a smaller first capacity only grows sooner (push doubles it).
    this.items = new Float64Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.size === this.items.length) {
      const grown = new Float64Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    const items = this.items;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[i] = items[parent] as number;
      i = parent;
    }
    items[i] = value;
  }

  pop(): number {
    const items = this.items;
    const top = items[0] as number;
    const last = items[--this.size] as number;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && (items[child + 1] as number) < (items[child] as number)) child++;
      if ((items[child] as number) >= last) break;
      items[i] = items[child] as number;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

/**
 * An exact tiktoken-style tokenizer. No special tokens are registered, so strings such as
 * `<|endoftext|>` in prompt text are encoded as ordinary text, as the APIs bill them, and never throw.
 */
export function bpeTokenizer(id: ExactTokenizerId, ranks: RawBytePairRanks, split: RegExp): Tokenizer {
  const encoder = new BytePairEncoder(ranks, split);
  const countBase = (text: string): number => encoder.count(text);
  return {
    id,
    exact: true,
    countBase,
    countChunks: (text, target) => encoder.countChunks(text, target),
    finish: (n) => n,
    count: countBase,
    encode: (text) => encoder.encode(text),
    // Stryker disable next-line all: see BytePairEncoder.clearCache
    clearCache: () => encoder.clearCache(),
  };
}
