import type { SourceRange } from './types';

/**
 * Where Markdown code sits in a text: fenced code blocks and inline code spans (CommonMark 0.31
 * §4.5 and §6.1). Text there is shown to the model as written, so `{{ x }}` or `${x}` inside it is
 * an example, not a template variable. Indented code blocks are not detected: prompts indent list
 * continuations far more often than they indent code, and a wrong guess would hide real variables.
 *
 * Hand-written rather than a Markdown parser: this runs on every parse of every keystroke, needs
 * only these two constructs with their offsets, and stays linear on hostile input (unmatched
 * backtick runs are paired through per-length queues, never by rescanning).
 */
export function markdownCodeRanges(text: string): SourceRange[] {
  const ranges: SourceRange[] = [];
  const backtick = backtickFinder(text);
  let paragraphStart = 0;
  let at = 0;
  while (at < text.length) {
    const lineEnd = endOfLine(text, at);
    const fence = openingFence(text, at, lineEnd);
    if (fence) {
      ranges.push(...codeSpans(text, paragraphStart, at, backtick));
      const end = closingFenceEnd(text, nextLine(text, lineEnd), fence);
      ranges.push({ start: at, end });
      at = end;
      paragraphStart = end;
      continue;
    }
    if (isBlank(text, at, lineEnd)) {
      // A blank line ends a paragraph: code spans never cross it.
      ranges.push(...codeSpans(text, paragraphStart, at, backtick));
      paragraphStart = nextLine(text, lineEnd);
    }
    at = nextLine(text, lineEnd);
  }
  ranges.push(...codeSpans(text, paragraphStart, text.length, backtick));
  return ranges.sort((a, b) => a.start - b.start);
}

/**
 * The first backtick at or after `from`, for ascending `from`s: one search answers every paragraph up to the next
 * backtick (looking at each character, or searching per paragraph to a far backtick, was a tenth of a
 * workspace scan's parsing).
 */
export function backtickFinder(text: string): (from: number) => number {
  let searchedFrom = 0;
  let found = text.indexOf('`');
  return (from) => {
    if (from < searchedFrom || (found !== -1 && found < from)) found = text.indexOf('`', (searchedFrom = from));
    return found;
  };
}

/** Whether [start, end) overlaps any of the sorted, disjoint ranges (binary search). */
export function insideAny(ranges: readonly SourceRange[], start: number, end: number): boolean {
  let lo = 0;
  let hi = ranges.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ranges[mid] as SourceRange).end <= start) lo = mid + 1;
    else hi = mid;
  }
  const r = ranges[lo];
  return r !== undefined && r.start < Math.max(end, start + 1);
}

interface Fence {
  char: string;
  length: number;
}

function endOfLine(text: string, from: number): number {
  const i = text.indexOf('\n', from);
  return i === -1 ? text.length : i;
}

function nextLine(text: string, lineEnd: number): number {
  return Math.min(text.length, lineEnd + 1);
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** Up to three spaces, then three or more backticks or tildes; a backtick fence's info string has no backtick. */
function openingFence(text: string, from: number, lineEnd: number): Fence | undefined {
  let i = from;
  while (i < lineEnd && i - from < 3 && text[i] === ' ') i++;
  const char = text[i];
  if (char !== '`' && char !== '~') return undefined;
  let j = i;
  while (j < lineEnd && text[j] === char) j++;
  if (j - i < 3) return undefined;
  if (char === '`' && text.slice(j, lineEnd).includes('`')) return undefined;
  return { char, length: j - i };
}

/** The end of the line that closes the fence (same character, at least as long, nothing else), or of the text. */
function closingFenceEnd(text: string, from: number, fence: Fence): number {
  let at = from;
  while (at < text.length) {
    const lineEnd = endOfLine(text, at);
    let i = at;
    while (i < lineEnd && i - at < 3 && text[i] === ' ') i++;
    let j = i;
    while (j < lineEnd && text[j] === fence.char) j++;
    if (j - i >= fence.length && isBlank(text, j, lineEnd)) return lineEnd;
    at = nextLine(text, lineEnd);
  }
  return text.length;
}

/**
 * Code spans in [from, to): a run of n backticks up to the next run of exactly n. A run with no
 * partner is literal text, and the search goes on after it (CommonMark §6.1).
 */
function codeSpans(text: string, from: number, to: number, backtick: (from: number) => number): SourceRange[] {
  const runs: Array<{ start: number; length: number }> = [];
  for (let i = backtick(from); i !== -1 && i < to;) {
    // A backslash escapes the first backtick of a run (outside code spans, which this is).
    const escaped = i > from && text[i - 1] === '\\';
    let j = i;
    while (j < to && text[j] === '`') j++;
    if (escaped) {
      if (j - i > 1) runs.push({ start: i + 1, length: j - i - 1 });
    } else runs.push({ start: i, length: j - i });
    i = backtick(j);
  }
  // For each length, the indices of its runs in order: a closer is found without rescanning.
  const byLength = new Map<number, number[]>();
  runs.forEach((r, k) => {
    let list = byLength.get(r.length);
    if (!list) byLength.set(r.length, (list = []));
    list.push(k);
  });
  const cursor = new Map<number, number>();
  const spans: SourceRange[] = [];
  let k = 0;
  while (k < runs.length) {
    const open = runs[k] as { start: number; length: number };
    const list = byLength.get(open.length) as number[];
    let c = cursor.get(open.length) ?? 0;
    while (c < list.length && (list[c] as number) <= k) c++;
    cursor.set(open.length, c);
    const close = list[c];
    if (close === undefined) {
      k++;
      continue;
    }
    const closing = runs[close] as { start: number; length: number };
    spans.push({ start: open.start, end: closing.start + closing.length });
    k = close + 1;
  }
  return spans;
}
