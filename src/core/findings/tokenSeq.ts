/** Token-sequence primitives for prefix grouping. */

/** Length of the longest common prefix of two token sequences. */
export function commonPrefix(a: Int32Array, b: Int32Array): number {
  // Stryker disable next-line MethodExpression: Math.max is equivalent: past the end is undefined, never equal.
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Lexicographic order; a proper prefix sorts first. */
export function compareTokens(a: Int32Array, b: Int32Array): number {
  const i = commonPrefix(a, b);
  if (i < a.length && i < b.length) return (a[i] as number) - (b[i] as number);
  return a.length - b.length;
}

/** FNV-1a over a token range: a cheap key for memoising work on identical prefixes. */
export function hashTokens(tokens: Int32Array, start: number, end: number): string {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= tokens[i] as number;
    h = Math.imul(h, 0x01000193);
  }
  return `${end - start}:${(h >>> 0).toString(36)}`;
}

export interface Realignment {
  /** Tokens skipped in each sequence after the first difference. */
  skipA: number;
  skipB: number;
  /** Tokens matching again after the skips. */
  matched: number;
}

const ANCHOR = 8;

/**
 * After the first difference at `d`, the smallest pair of skips (each at most `maxGap`) after which
 * both sequences agree again for at least an anchor's length (or to the end of one of them).
 */
export function realign(a: Int32Array, b: Int32Array, d: number, maxGap: number): Realignment | undefined {
  for (let total = 1; total <= 2 * maxGap; total++) {
    for (let skipA = Math.max(0, total - maxGap); skipA <= Math.min(total, maxGap); skipA++) {
      const skipB = total - skipA;
      const restA = a.subarray(d + skipA);
      const restB = b.subarray(d + skipB);
      const matched = commonPrefix(restA, restB);
      if (matched >= Math.min(ANCHOR, restA.length, restB.length) && matched > 0) return { skipA, skipB, matched };
    }
  }
  return undefined;
}
