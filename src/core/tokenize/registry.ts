import type { TiktokenBPE } from 'js-tiktoken/lite';
import { tiktokenTokenizer } from './tiktoken';
import { TOKENIZER_IDS, type Tokenizer, type TokenizerId, type TokenizerInfo } from './types';

const INFO: Record<TokenizerId, TokenizerInfo> = {
  o200k_base: { id: 'o200k_base', exact: true, description: 'OpenAI o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5, gpt-oss)' },
  cl100k_base: { id: 'cl100k_base', exact: true, description: 'OpenAI cl100k_base (GPT-4, GPT-3.5, embeddings)' },
};

// Literal requires so the bundler can split each vocabulary into its own lazily required file.
const LOADERS: Record<TokenizerId, () => Tokenizer> = {
  o200k_base: () => tiktokenTokenizer('o200k_base', ranksOf(require('js-tiktoken/ranks/o200k_base'))),
  cl100k_base: () => tiktokenTokenizer('cl100k_base', ranksOf(require('js-tiktoken/ranks/cl100k_base'))),
};

function ranksOf(mod: { default?: TiktokenBPE } & Partial<TiktokenBPE>): TiktokenBPE {
  return (mod.default ?? mod) as TiktokenBPE;
}

const loaded = new Map<TokenizerId, Tokenizer>();

export function isTokenizerId(id: string): id is TokenizerId {
  return (TOKENIZER_IDS as readonly string[]).includes(id);
}

export function listTokenizers(): TokenizerInfo[] {
  return TOKENIZER_IDS.map((id) => INFO[id]);
}

/** Loads a vocabulary on first use only (never at activation) and keeps it for later calls. */
export function getTokenizer(id: TokenizerId): Tokenizer {
  let tokenizer = loaded.get(id);
  if (!tokenizer) {
    tokenizer = LOADERS[id]();
    loaded.set(id, tokenizer);
  }
  return tokenizer;
}

/** Which vocabularies have been loaded so far (activation must leave this empty). */
export function loadedTokenizers(): TokenizerId[] {
  return [...loaded.keys()];
}

export const DEFAULT_TOKENIZER: TokenizerId = 'o200k_base';
