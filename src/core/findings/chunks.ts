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
  if (words.length < SHINGLE_WORDS) {
    if (words.length > 0) set.add(words.join(' '));
    return set;
  }
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) set.add(words.slice(i, i + SHINGLE_WORDS).join(' '));
  return set;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
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

/** Each chunk is compared with the chunks before it; a chunk is reported once, against its closest earlier twin. */
export function findDuplicates(texts: readonly string[], minSimilarity: number): DuplicatePair[] {
  const normalised = texts.map(normaliseChunk);
  const sets = normalised.map(shingles);
  const pairs: DuplicatePair[] = [];
  for (let later = 1; later < texts.length; later++) {
    let best: DuplicatePair | undefined;
    for (let earlier = 0; earlier < later; earlier++) {
      const similarity =
        normalised[earlier] === normalised[later]
          ? 1
          : jaccard(sets[earlier] as Set<string>, sets[later] as Set<string>);
      if (similarity >= minSimilarity && (!best || similarity > best.similarity)) best = { later, earlier, similarity };
    }
    if (best) pairs.push(best);
  }
  return pairs;
}
