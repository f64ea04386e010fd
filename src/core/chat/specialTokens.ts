import type { TextCounter } from '../count';
import type { Tokenizer } from '../tokenize/types';

const patterns = new WeakMap<readonly string[], RegExp>();

/** One alternation of a model's special tokens, longest first (leftmost-longest, as Hugging Face matches them). */
function specialPattern(specials: readonly string[]): RegExp | undefined {
  if (specials.length === 0) return undefined;
  let pattern = patterns.get(specials);
  if (!pattern) {
    const escaped = [...specials]
      .filter((s) => s.length > 0)
      .sort((a, b) => b.length - a.length)
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    pattern = new RegExp(escaped.join('|'), 'gu');
    patterns.set(specials, pattern);
  }
  return pattern;
}

/** A text cut at the model's special tokens: plain runs and special tokens, in order. */
export interface RenderedPiece {
  text: string;
  special: boolean;
}

export function splitSpecials(text: string, specials: readonly string[]): RenderedPiece[] {
  const pattern = specialPattern(specials);
  if (!pattern) return text ? [{ text, special: false }] : [];
  const pieces: RenderedPiece[] = [];
  let from = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > from) pieces.push({ text: text.slice(from, match.index), special: false });
    pieces.push({ text: match[0], special: true });
    from = match.index + match[0].length;
  }
  if (from < text.length) pieces.push({ text: text.slice(from), special: false });
  return pieces;
}

/** How a model's tokenizer treats rendered text where it differs from its family's (see ChatTemplate). */
export interface RenderedRules {
  /** The special tokens, in place of the tokenizer's own. */
  specials?: readonly string[];
  /** SentencePiece's `▁` only at the start of the text (Metaspace `prepend_scheme: "first"`). */
  prependFirst?: boolean;
}

/**
 * Tokens of text a chat template rendered, as an inference engine (vLLM, llama.cpp, TGI) tokenizes
 * it: every special token in it is one token, whether the template or the message text wrote it,
 * and the runs between them go through BPE. `counter` may memoise runs (a CountMemo).
 */
export function countRendered(
  text: string,
  tokenizer: Tokenizer,
  counter: TextCounter = tokenizer,
  rules: RenderedRules = {},
): number {
  const continuation = rules.prependFirst ? tokenizer.countContinuation : undefined;
  let tokens = 0;
  let first = true;
  for (const piece of splitSpecials(text, rules.specials ?? tokenizer.specials ?? [])) {
    if (piece.special) tokens += 1;
    // Metaspace "first": `▁` before the run at the text's start only, and not where it already begins with one.
    else if (continuation && (!first || /^[ ▁]/u.test(piece.text))) tokens += continuation(piece.text);
    else tokens += counter.count(piece.text);
    first = false;
  }
  return tokens;
}
