import { get_encoding, Tiktoken } from 'tiktoken';
import { llama3Ranks } from '../../../src/core/tokenize/llama3';
import { CL100K_PATTERN } from '../../../src/core/tokenize/patterns';
import type { ExactTokenizerId } from '../../../src/core/tokenize/types';

/** An independent implementation of a tokenizer: token ids of plain text, special-token strings as text. */
export interface Reference {
  readonly name: string;
  encode(text: string): number[];
}

/**
 * One of our exact tokenizers and a reference it must agree with, id for id. `unlike` lists
 * characters on which the reference itself departs from the model's real tokenizer (with why);
 * generated texts for that pair leave them out. Adding a tokenizer or a reference is one entry.
 */
export interface DifferentialPair {
  readonly ours: ExactTokenizerId;
  /** The reference's name (its `name`), known before it is loaded. */
  readonly name: string;
  /** Loads the reference (once: later calls return the same one). */
  readonly reference: () => Reference;
  /** Built with our code (our Llama 3 rank conversion): mutation testing loads it before any mutant runs. */
  readonly usesOurCode?: true;
  readonly unlike?: { readonly characters: string; readonly why: string };
}

const LLAMA3_JS = 'llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs';

interface Llama3Js {
  vocabById: string[];
  encode(text: string, options: object): number[];
}

const llama3Js = (): Llama3Js => require(LLAMA3_JS).llama3Tokenizer as Llama3Js;

/** OpenAI's tiktoken (Rust, as WASM) with its own encoding files. */
function tiktoken(encoding: 'o200k_base' | 'cl100k_base'): Reference {
  const wasm = get_encoding(encoding);
  return { name: `tiktoken ${encoding}`, encode: (text) => Array.from(wasm.encode_ordinary(text)) };
}

/**
 * Meta's reference Llama 3 tokenizer is tiktoken with Llama 3's 128,000 ranks and this pattern
 * (llama-models, `tokenizer.py`); here tiktoken's WASM build runs it. The ranks are read from
 * llama3-tokenizer-js's vocabulary by our conversion, which the second Llama 3 pair checks.
 */
function tiktokenLlama3(): Reference {
  const bytes = new TextEncoder();
  const lines = llama3Ranks(llama3Js()).map((token, rank) => {
    const raw = typeof token === 'string' ? bytes.encode(token) : Uint8Array.from(token);
    return `${Buffer.from(raw).toString('base64')} ${rank}`;
  });
  const wasm = new Tiktoken(lines.join('\n'), {}, CL100K_PATTERN);
  return { name: 'tiktoken with Llama 3 ranks', encode: (text) => Array.from(wasm.encode_ordinary(text)) };
}

/** llama3-tokenizer-js's own encoder (Hugging Face merges, not ranks), special tokens read as text. */
function llama3TokenizerJs(): Reference {
  const tokenizer = llama3Js();
  const never = /(?!)/g;
  return {
    name: 'llama3-tokenizer-js',
    encode: (text) => tokenizer.encode(text, { bos: false, eos: false, specialTokenRegex: never }),
  };
}

/** `load`, called on first use only: a test file that lists the pairs loads no reference until a test needs it. */
function once(load: () => Reference): () => Reference {
  let loaded: Reference | undefined;
  return () => (loaded ??= load());
}

export const DIFFERENTIAL_PAIRS: readonly DifferentialPair[] = [
  { ours: 'o200k_base', name: 'tiktoken o200k_base', reference: once(() => tiktoken('o200k_base')) },
  { ours: 'cl100k_base', name: 'tiktoken cl100k_base', reference: once(() => tiktoken('cl100k_base')) },
  { ours: 'llama3', name: 'tiktoken with Llama 3 ranks', reference: once(tiktokenLlama3), usesOurCode: true },
  {
    ours: 'llama3',
    name: 'llama3-tokenizer-js',
    reference: once(llama3TokenizerJs),
    unlike: {
      characters: '\u0085\uFEFF',
      why: "its split pattern uses JavaScript's \\s, which takes U+FEFF and misses U+0085",
    },
  },
];
