import { distance } from 'fastest-levenshtein';

/**
 * The nearest ids (at most `max`): ids that contain the query, or that the query extends with a "-suffix"
 * ("h200-sxm" → "h200"), come first,
 * then by edit distance ignoring punctuation ("gpt4o" → "gpt-4o"), then by plain edit distance; ties keep table order.
 */
export function closestIds(query: string, candidates: readonly string[], max = 3): string[] {
  const q = query.toLowerCase();
  return candidates
    .map((candidate, index) => {
      const c = candidate.toLowerCase();
      return {
        candidate,
        index,
        contains: c.includes(q) || q.startsWith(`${c}-`) ? 0 : 1,
        bare: distance(bare(q), bare(c)),
        d: distance(q, c),
      };
    })
    .sort((a, b) => a.contains - b.contains || a.bare - b.bare || a.d - b.d || a.index - b.index)
    .slice(0, max)
    .map((c) => c.candidate);
}

function bare(id: string): string {
  return id.replace(/[^a-z0-9]/g, '');
}
