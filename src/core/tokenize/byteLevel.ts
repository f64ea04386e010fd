import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';

/**
 * Hugging Face byte-level token strings (GPT-2's byte-to-unicode alphabet, index = rank) as
 * gpt-tokenizer ranks: the text a token stands for where its bytes are valid UTF-8, else its bytes.
 * Used for every byte-level BPE vocabulary whose merge order equals its id order (Llama 3, Qwen2,
 * DeepSeek-V3; checked against their merge lists in test/unit/core/openWeightTokenizers.test.ts).
 */
export function byteLevelRanks(tokens: readonly string[]): RawBytePairRanks {
  const byteOf = byteLevelDecoder();
  // ignoreBOM: a token such as "\uFEFF\n" must keep its BOM.
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  return tokens.map((token) => {
    const bytes = new Uint8Array(token.length);
    for (let i = 0; i < token.length; i++) bytes[i] = byteOf[token.charCodeAt(i)] ?? 0;
    try {
      return utf8.decode(bytes);
    } catch {
      return Array.from(bytes);
    }
  });
}

/** GPT-2's byte-to-unicode table, inverted (char code → byte): printable bytes are themselves, others U+0100 on. */
function byteLevelDecoder(): Uint8Array {
  const printable = (b: number): boolean =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const table = new Uint8Array(0x200);
  let next = 0;
  for (let b = 0; b < 256; b++) table[printable(b) ? b : 256 + next++] = b;
  return table;
}
