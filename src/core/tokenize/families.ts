import { byteLevelRanks } from './byteLevel';
import { bpeTokenizer } from './bpe';
import { splitRegex } from './patterns';
import type { Chunk, ExactTokenizerId, Tokenizer } from './types';
import type { CompactVocabulary } from './vocabulary';

/** Qwen2's split pattern (Qwen2.5, Qwen3), verbatim from its tokenizer.json: digits one by one. */
const QWEN2_PATTERN = String.raw`(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`;

/**
 * DeepSeek-V3's pre-tokenizer is a sequence of three splits, verbatim from its tokenizer.json, each
 * applied to the pieces the one before left: digit groups of up to three, then runs of CJK
 * ideographs and kana, then the word pattern. One alternation of the three would not be the same (a
 * lookahead would see past a piece's end), so they are applied in turn.
 */
const DEEPSEEK_SPLITS = [
  String.raw`\p{N}{1,3}`,
  String.raw`[一-龥぀-ゟ゠-ヿ]+`,
  // (the backtick is joined in: String.raw cannot hold one unescaped)
  String.raw`[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_` +
    '`' +
    String.raw`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
].map(splitRegex);
/** The engine's own split for pieces that are already pre-tokens: take each whole. */
const WHOLE = /[\s\S]+/gu;

/** Hugging Face's `Split` with behaviour `Isolated`: matches and the text between them, in order. */
function* isolated(text: string, pattern: RegExp): Generator<string> {
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > from) yield text.slice(from, match.index);
    yield match[0];
    from = match.index + match[0].length;
  }
  if (from < text.length) yield from === 0 ? text : text.slice(from);
}

function* deepseekPieces(text: string, level = 0): Generator<string> {
  const pattern = DEEPSEEK_SPLITS[level];
  if (!pattern) {
    yield text;
    return;
  }
  for (const piece of isolated(text, pattern)) yield* deepseekPieces(piece, level + 1);
}

/** Qwen2 (Qwen2.5, Qwen3): NFC-normalised, then byte-level BPE with its own split pattern. */
export function qwen2Tokenizer(vocabulary: CompactVocabulary): Tokenizer {
  const base = bpeTokenizer('qwen2', byteLevelRanks(vocabulary.tokens), splitRegex(QWEN2_PATTERN));
  const nfc = (text: string): string => text.normalize('NFC');
  return withSpecials(
    {
      ...base,
      countBase: (text) => base.countBase(nfc(text)),
      countChunks: (text) => oneChunk(text, base.countBase(nfc(text))),
      count: (text) => base.countBase(nfc(text)),
      encode: (text) => base.encode(nfc(text)),
    },
    vocabulary,
  );
}

/** DeepSeek-V3 / R1: byte-level BPE over its three-step pre-tokenizer, no normalisation. */
export function deepseekTokenizer(vocabulary: CompactVocabulary): Tokenizer {
  return presplitTokenizer('deepseek-v3', vocabulary, deepseekPieces);
}

function presplitTokenizer(
  id: ExactTokenizerId,
  vocabulary: CompactVocabulary,
  pieces: (text: string) => Iterable<string>,
): Tokenizer {
  const base = bpeTokenizer(id, byteLevelRanks(vocabulary.tokens), WHOLE);
  const countBase = (text: string): number => {
    let total = 0;
    for (const piece of pieces(text)) total += base.countBase(piece);
    return total;
  };
  return withSpecials(
    {
      ...base,
      countBase,
      countChunks: (text) => oneChunk(text, countBase(text)),
      count: countBase,
      encode: (text) => {
        const ids: number[] = [];
        for (const piece of pieces(text)) for (const token of base.encode(piece)) ids.push(token);
        return ids;
      },
    },
    vocabulary,
  );
}

/**
 * These families normalise or pre-split before the engine, so the engine's safe cut points (see
 * boundaries.ts, derived for the tiktoken patterns) are not known to hold: the whole text is one
 * chunk, and incremental counting re-counts it on each edit.
 */
export function oneChunk(text: string, tokens: number): Chunk[] {
  return text.length === 0 ? [] : [{ length: text.length, tokens }];
}

function withSpecials(tokenizer: Tokenizer, vocabulary: CompactVocabulary): Tokenizer {
  return { ...tokenizer, specials: vocabulary.specials };
}
