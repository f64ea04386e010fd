import { BytePairEncodingCore, type RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import type { ExactTokenizerId, Tokenizer } from './types';

/**
 * Longest run of one character class (letters and marks, whitespace, punctuation) that is encoded
 * as it is. The split patterns keep such a run as one pre-token, and BPE merge time grows with the
 * square of a pre-token's length (a 200,000-letter run takes about 30 s), so longer runs are cut
 * into pieces of this length: bounded time, a count that may be off by about one token per cut.
 * Natural text never has such runs; hostile or generated text (`aaaa…`, `====…`) does.
 */
export const MAX_RUN = 256;

const LONG_RUN = new RegExp(
  `[\\p{L}\\p{M}]{${MAX_RUN + 1},}|\\s{${MAX_RUN + 1},}|[^\\s\\p{L}\\p{N}]{${MAX_RUN + 1},}`,
  'gu',
);

/** Whether `text` has a run that the tokenizers cut (so their count of it is approximate). */
export function hasLongRun(text: string): boolean {
  LONG_RUN.lastIndex = 0;
  const found = LONG_RUN.test(text);
  LONG_RUN.lastIndex = 0;
  return found;
}

/**
 * `text` as pieces that are encoded separately: long runs cut every MAX_RUN code units (never inside a surrogate pair).
 */
function* pieces(text: string): Generator<string> {
  let from = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    if (match.index > from) yield text.slice(from, match.index);
    const run = match[0];
    for (let start = 0; start < run.length;) {
      let end = Math.min(start + MAX_RUN, run.length);
      if (end < run.length && isLowSurrogate(run.charCodeAt(end))) end++;
      yield run.slice(start, end);
      start = end;
    }
    from = match.index + run.length;
  }
  if (from < text.length) yield from === 0 ? text : text.slice(from);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * An exact tiktoken-style tokenizer on gpt-tokenizer's engine (about 10x js-tiktoken's speed with
 * identical ids; see bench/tokenize.bench.ts). No special tokens are registered, so strings such as
 * `<|endoftext|>` in prompt text are encoded as ordinary text, as the APIs bill them, and never throw.
 */
export function bpeTokenizer(id: ExactTokenizerId, ranks: RawBytePairRanks, splitRegex: RegExp): Tokenizer {
  const core = new BytePairEncodingCore({
    bytePairRankDecoder: ranks,
    tokenSplitRegex: splitRegex,
    specialTokensEncoder: new Map(),
  });
  const countBase = (text: string): number => {
    let total = 0;
    for (const piece of pieces(text)) total += core.countNative(piece);
    return total;
  };
  return {
    id,
    exact: true,
    countBase,
    finish: (n) => n,
    count: countBase,
    encode: (text) => {
      const ids: number[] = [];
      for (const piece of pieces(text)) for (const token of core.encodeNative(piece)) ids.push(token);
      return ids;
    },
  };
}
