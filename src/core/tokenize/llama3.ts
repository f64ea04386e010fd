import type { RawBytePairRanks } from 'gpt-tokenizer/BytePairEncodingCore';

/** Llama 3's 128,000 mergeable tokens; ids above are special tokens, which we never match. */
const MERGEABLE_TOKENS = 128_000;

interface Llama3Vocabulary {
  vocabById: string[];
}

/**
 * Converts llama3-tokenizer-js's vocabulary (Hugging Face byte-level strings, index = token id) into
 * gpt-tokenizer ranks. Llama 3's tokenizer is tiktoken-based with cl100k_base's split pattern, so
 * ranks by id + that pattern reproduce it exactly (checked against the package's own encoder).
 */
export function llama3Ranks(vocabulary: Llama3Vocabulary): RawBytePairRanks {
  const byteOf = byteLevelDecoder();
  // ignoreBOM: token 62619 is "\uFEFF\n", which a BOM-stripping decoder would turn into "\n".
  const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  return vocabulary.vocabById.slice(0, MERGEABLE_TOKENS).map((token) => {
    const bytes = new Uint8Array(token.length);
    for (let i = 0; i < token.length; i++) bytes[i] = byteOf[token.charCodeAt(i)] ?? 0;
    try {
      return utf8.decode(bytes);
    } catch {
      return Array.from(bytes);
    }
  });
}

/**
 * GPT-2's byte-to-unicode table, inverted (char code → byte): printable bytes stand for themselves, others for U+0100
 * on.
 */
function byteLevelDecoder(): Uint8Array {
  const printable = (b: number): boolean =>
    (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const table = new Uint8Array(0x200);
  let next = 0;
  for (let b = 0; b < 256; b++) table[printable(b) ? b : 256 + next++] = b;
  return table;
}
