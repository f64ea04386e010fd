import { DEFAULT_TOKENIZER, TOKENIZER_IDS, type TokenizerId } from './types';

/**
 * Model id → tokenizer, first matching prefix wins (ids are lower-cased, provider prefixes such as
 * `openai/` or `meta-llama/` dropped). Order matters: more specific prefixes come first.
 */
const PREFIXES: ReadonlyArray<readonly [string, TokenizerId]> = [
  ['gpt-4o', 'o200k_base'],
  ['gpt-4.1', 'o200k_base'],
  ['gpt-4.5', 'o200k_base'],
  ['gpt-5', 'o200k_base'],
  ['gpt-oss', 'o200k_base'],
  ['chatgpt-4o', 'o200k_base'],
  ['o1', 'o200k_base'],
  ['o3', 'o200k_base'],
  ['o4', 'o200k_base'],
  ['gpt-4', 'cl100k_base'],
  ['gpt-3.5', 'cl100k_base'],
  ['text-embedding-3', 'cl100k_base'],
  ['text-embedding-ada-002', 'cl100k_base'],
  ['llama-3', 'llama3'],
  ['llama3', 'llama3'],
  ['meta-llama-3', 'llama3'],
  ['qwen', 'qwen2'],
  ['deepseek', 'deepseek-v3'],
  // Mistral's API models since mid-2024 (NeMo, Small 3, Large 2, Codestral 25.01…) use Tekken; the open 7B and
  // Mixtral models the 32,000-piece SentencePiece vocabulary.
  ['mistral-small', 'tekken'],
  ['mistral-medium', 'tekken'],
  ['mistral-large', 'tekken'],
  ['mistral-nemo', 'tekken'],
  ['open-mistral-nemo', 'tekken'],
  ['ministral', 'tekken'],
  ['magistral', 'tekken'],
  ['devstral', 'tekken'],
  ['pixtral', 'tekken'],
  ['codestral', 'tekken'],
  ['mistral', 'mistral'],
  ['open-mistral', 'mistral'],
  ['mixtral', 'mistral'],
  ['open-mixtral', 'mistral'],
  // A Mistral 7B v0.1 fine-tune: the same vocabulary (zephyr-7b-gemma is Gemma 1's, which is not here).
  ['zephyr-7b-beta', 'mistral'],
  ['gemma', 'gemma3'],
  ['gemini', 'gemini'],
  ['claude', 'claude'],
];

/** The tokenizer for a model id; `approximate` when the family is unknown. */
export function tokenizerForModel(model: string): TokenizerId {
  const id = model.trim().toLowerCase().replace(/^.*\//, '');
  return PREFIXES.find(([prefix]) => id.startsWith(prefix))?.[1] ?? 'approximate';
}

/**
 * The one tokenizer resolution, for every surface: a tokenizer id as it is, a model name (front matter, table rows,
 * flags) to its family's tokenizer; no name: the default; an unknown model: `approximate` (o200k_base counts,
 * marked inexact).
 */
export function tokenizerFor(name: string | undefined): TokenizerId {
  if (name === undefined) return DEFAULT_TOKENIZER;
  return (TOKENIZER_IDS as readonly string[]).includes(name) ? (name as TokenizerId) : tokenizerForModel(name);
}
