import type { FileCount } from '../core/count';

/** "12,480 tok" — with "≈" when the tokenizer only approximates the model's. */
export function formatTokens(count: FileCount): string {
  return `${count.exact ? '' : '≈'}${count.contentTokens.toLocaleString('en-US')} tok`;
}
