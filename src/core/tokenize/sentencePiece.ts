import { oneChunk } from './families';
import type { Tokenizer, ExactTokenizerId } from './types';
import type { CompactVocabulary } from './vocabulary';

/** SentencePiece's word-boundary mark: spaces become it before BPE. */
const SPACE = '▁';
/** Pieces up to this many symbols merge by a linear scan; longer ones (CJK runs, minified code) by a heap. */
const LINEAR_MERGE_MAX = 32;
const CACHE_ENTRIES = 100_000;

export interface SentencePieceOptions {
  /** Prepend `▁` to the text (Llama 2/Mistral's add_dummy_prefix); Gemma adds none. */
  dummyPrefix: boolean;
}

/**
 * SentencePiece-style BPE over characters (Gemma 3, Mistral): spaces become `▁`, each character is
 * a symbol (one unknown to the vocabulary falls back to its UTF-8 bytes, `<0xE4>`…, which never
 * merge), and adjacent symbols merge lowest rank first while their concatenation is a token. Ranks
 * are the vocabulary order (merge order; see vocabulary.ts).
 *
 * The text is cut before every `▁` that follows a character no token joins to a `▁` (every other
 * character, in practice): no token spans such a cut, so no merge can, and pieces are short enough to
 * cache. Special tokens are matched by the chat path (specialTokens.ts), not here.
 */
export function sentencePieceTokenizer(
  id: ExactTokenizerId,
  vocabulary: CompactVocabulary,
  options: SentencePieceOptions,
): Tokenizer {
  const ranks = new Map<string, number>();
  vocabulary.tokens.forEach((token, rank) => {
    if (token && !ranks.has(token)) ranks.set(token, rank);
  });
  const byteIds = Array.from(
    { length: 256 },
    (_, b) => ranks.get(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`) ?? -1,
  );
  // Characters some token joins to a following ▁ (Gemma: only '>' in '>▁</'): never cut after them.
  const joinsSpace = new Set<string>();
  for (const token of vocabulary.tokens) {
    for (let i = token.indexOf(SPACE, 1); i > 0; i = token.indexOf(SPACE, i + 1)) {
      const before = token[i - 1] as string;
      if (before !== SPACE) joinsSpace.add(before);
    }
  }
  const cache = new Map<string, number[]>();
  const encoder = new TextEncoder();

  const pieceIds = (piece: string): number[] => {
    let ids = cache.get(piece);
    if (ids) return ids;
    const whole = ranks.get(piece);
    ids = whole !== undefined ? [whole] : merge(piece, ranks, byteIds, encoder);
    // Stryker disable next-line all: the cache's bound changes memory, not ids (a piece not cached is merged again).
    if (cache.size >= CACHE_ENTRIES) cache.clear();
    cache.set(piece, ids);
    return ids;
  };
  const normalize = (text: string): string => (options.dummyPrefix && text ? SPACE : '') + text.replaceAll(' ', SPACE);
  function* pieces(text: string): Generator<string> {
    let from = 0;
    for (let i = text.indexOf(SPACE, 1); i > 0; i = text.indexOf(SPACE, i + 1)) {
      const before = text[i - 1] as string;
      if (before === SPACE || joinsSpace.has(before)) continue;
      yield text.slice(from, i);
      from = i;
    }
    if (from < text.length) yield text.slice(from);
  }
  const countNormalized = (normalized: string): number => {
    let total = 0;
    for (const piece of pieces(normalized)) total += pieceIds(piece).length;
    return total;
  };
  const countBase = (text: string): number => countNormalized(normalize(text));
  return {
    id,
    exact: true,
    countBase,
    countChunks: (text) => oneChunk(text, countBase(text)),
    finish: (n) => n,
    count: countBase,
    encode: (text) => {
      const out: number[] = [];
      for (const piece of pieces(normalize(text))) for (const token of pieceIds(piece)) out.push(token);
      return out;
    },
    specials: vocabulary.specials,
    ...(options.dummyPrefix
      ? { countContinuation: (text: string) => countNormalized(text.replaceAll(' ', SPACE)) }
      : {}),
    // Stryker disable next-line all: only mutation testing calls it (test/unit/setup/mutation.mjs)
    clearCache: () => cache.clear(),
  };
}

/** BPE over one piece's characters (symbols as [start, end) UTF-16 offsets), lowest rank first, leftmost on ties. */
function merge(
  piece: string,
  ranks: Map<string, number>,
  byteIds: number[],
  encoder: { encode(text: string): Uint8Array },
): number[] {
  const starts: number[] = [];
  for (let i = 0; i < piece.length;) {
    starts.push(i);
    i += (piece.codePointAt(i) as number) > 0xffff ? 2 : 1;
  }
  starts.push(piece.length);
  const symbols = starts.length - 1;
  const rank = (from: number, to: number): number => ranks.get(piece.slice(from, to)) ?? Infinity;
  // Stryker disable next-line all: which loop merges is speed, not ids (tokenizeEngines.test.ts checks both loops).
  const bounds = symbols <= LINEAR_MERGE_MAX ? mergeLinear(starts, rank) : mergeHeap(starts, rank);
  const ids: number[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const from = bounds[i] as number;
    const to = bounds[i + 1] as number;
    const id = ranks.get(piece.slice(from, to));
    if (id !== undefined) ids.push(id);
    else for (const byte of encoder.encode(piece.slice(from, to))) ids.push(byteIds[byte] as number);
  }
  return ids;
}

/** Quadratic but allocation-free for short pieces: rescan the pairs after each merge. */
function mergeLinear(starts: number[], rank: (from: number, to: number) => number): number[] {
  const bounds = starts.slice();
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i + 2 < bounds.length; i++) {
      const r = rank(bounds[i] as number, bounds[i + 2] as number);
      if (r < best) {
        best = r;
        at = i;
      }
    }
    if (at < 0) return bounds;
    bounds.splice(at + 1, 1);
  }
}

/**
 * The same merges in O(n log n): a heap of candidate pairs keyed (rank, position), a linked list of
 * symbols, and stale heap entries skipped when popped.
 */
function mergeHeap(starts: number[], rank: (from: number, to: number) => number): number[] {
  const n = starts.length - 1;
  const start = Int32Array.from(starts.slice(0, n));
  const end = Int32Array.from(starts.slice(1));
  const next = Int32Array.from({ length: n }, (_, i) => (i + 1 < n ? i + 1 : -1));
  const prev = Int32Array.from({ length: n }, (_, i) => i - 1);
  const alive = new Uint8Array(n).fill(1);
  const heap: Array<[number, number, number, number]> = []; // rank, left symbol, its end, right's end
  const push = (left: number): void => {
    const right = next[left] as number;
    if (right < 0) return;
    const r = rank(start[left] as number, end[right] as number);
    if (r !== Infinity) heapPush(heap, [r, left, end[left] as number, end[right] as number]);
  };
  for (let i = 0; i + 1 < n; i++) push(i);
  while (heap.length > 0) {
    const [, left, leftEnd, rightEnd] = heapPop(heap);
    const right = next[left] as number;
    if (!alive[left] || right < 0 || end[left] !== leftEnd || end[right] !== rightEnd) continue;
    end[left] = rightEnd;
    alive[right] = 0;
    const after = next[right] as number;
    next[left] = after;
    if (after >= 0) prev[after] = left;
    const before = prev[left] as number;
    if (before >= 0) push(before);
    push(left);
  }
  const bounds: number[] = [];
  for (let i = 0; i >= 0; i = next[i] as number) bounds.push(start[i] as number);
  bounds.push(starts[n] as number);
  return bounds;
}

type Entry = [number, number, number, number];
const less = (a: Entry, b: Entry): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

function heapPush(heap: Entry[], entry: Entry): void {
  heap.push(entry);
  for (let i = heap.length - 1; i > 0;) {
    const parent = (i - 1) >> 1;
    if (!less(heap[i] as Entry, heap[parent] as Entry)) break;
    [heap[i], heap[parent]] = [heap[parent] as Entry, heap[i] as Entry];
    i = parent;
  }
}

function heapPop(heap: Entry[]): Entry {
  const top = heap[0] as Entry;
  const last = heap.pop() as Entry;
  if (heap.length > 0) {
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l] as Entry, heap[m] as Entry)) m = l;
      if (r < heap.length && less(heap[r] as Entry, heap[m] as Entry)) m = r;
      if (m === i) break;
      [heap[i], heap[m]] = [heap[m] as Entry, heap[i] as Entry];
      i = m;
    }
  }
  return top;
}
