/**
 * Duplicate and near-duplicate detection for retrieved chunks: exact after normalising case,
 * punctuation and whitespace; near when the Jaccard similarity of their word shingles is high.
 */

const SHINGLE_WORDS = 3;

export function normaliseChunk(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function shingles(normalised: string): Set<string> {
  const words = normalised.split(' ').filter((w) => w.length > 0);
  const set = new Set<string>();
  // Stryker disable next-line EqualityOperator: `<=` is equivalent, three words joined are their one shingle.
  if (words.length < SHINGLE_WORDS) {
    if (words.length > 0) set.add(words.join(' '));
    return set;
  }
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) set.add(words.slice(i, i + SHINGLE_WORDS).join(' '));
  return set;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  // Stryker disable next-line ConditionalExpression,EqualityOperator: which set is walked is work, not result.
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let common = 0;
  for (const s of small) if (large.has(s)) common++;
  return common / (a.size + b.size - common);
}

export interface DuplicatePair {
  /** Index of the later chunk, which repeats the earlier one. */
  later: number;
  earlier: number;
  /** 1 for identical after normalising. */
  similarity: number;
}

/**
 * Earlier chunks a chunk is compared with at most: bounds the work on thousands of near-identical
 * chunks (each would otherwise be compared with every one before it).
 */
export const MAX_CANDIDATES = 64;

/**
 * Each chunk is compared with the chunks before it; a chunk is reported once, against its closest
 * earlier twin (the first of equals). Exact repeats are found through a Map. Near ones through an
 * index of rare shingles (prefix filtering: with shingles ordered rarest first, two sets of Jaccard
 * similarity ≥ t share one of the first |S| − ⌈t·|S|⌉ + 1 of each), so only chunks that can reach the
 * threshold are compared — at most MAX_CANDIDATES of them per chunk, the latest sharing its rarest shingles.
 */
export function findDuplicates(texts: readonly string[], minSimilarity: number): DuplicatePair[] {
  const normalised = texts.map(normaliseChunk);
  const sets = normalised.map(shingles);
  const frequency = new Map<string, number>();
  for (const set of sets) for (const s of set) frequency.set(s, (frequency.get(s) ?? 0) + 1);
  const firstWith = new Map<string, number>();
  /** Shingle → earlier chunks having it among their rarest (the prefix), in order. */
  const index = new Map<string, number[]>();
  const pairs: DuplicatePair[] = [];
  texts.forEach((_, later) => {
    const text = normalised[later] as string;
    const set = sets[later] as Set<string>;
    const rarest = [...set].sort(
      (a, b) => (frequency.get(a) as number) - (frequency.get(b) as number) || (a < b ? -1 : 1),
    );
    const prefix = rarest.slice(0, set.size - Math.ceil(minSimilarity * set.size) + 1);
    const same = firstWith.get(text);
    let best: DuplicatePair | undefined = same === undefined ? undefined : { later, earlier: same, similarity: 1 };
    // Even an exact repeat is compared: an earlier chunk with the same shingles (similarity 1) may come first.
    // A chunk without words has an empty prefix, so nothing to compare.
    const candidates = new Set<number>();
    for (const s of prefix) {
      const earlier = index.get(s) ?? [];
      for (let k = earlier.length - 1; k >= 0 && candidates.size < MAX_CANDIDATES; k--)
        candidates.add(earlier[k] as number);
    }
    for (const earlier of candidates) {
      const similarity = jaccard(sets[earlier] as Set<string>, set);
      if (
        similarity >= minSimilarity &&
        (!best || similarity > best.similarity || (similarity === best.similarity && earlier < best.earlier))
      )
        best = { later, earlier, similarity };
    }
    if (best) pairs.push(best);
    if (same === undefined) firstWith.set(text, later);
    for (const s of prefix) {
      let list = index.get(s);
      if (!list) index.set(s, (list = []));
      list.push(later);
    }
  });
  return pairs;
}
