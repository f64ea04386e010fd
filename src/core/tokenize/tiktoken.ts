import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import type { Tokenizer, TokenizerId } from './types';

/**
 * Wraps js-tiktoken so that special-token strings in prompt text (`<|endoftext|>`, `<|im_start|>`)
 * are encoded as ordinary text, as the APIs bill them, instead of throwing (js-tiktoken's default).
 */
export function tiktokenTokenizer(id: TokenizerId, ranks: TiktokenBPE): Tokenizer {
  const bpe = new Tiktoken(ranks);
  const encode = (text: string): number[] => bpe.encode(text, [], []);
  return { id, exact: true, encode, count: (text) => encode(text).length };
}
