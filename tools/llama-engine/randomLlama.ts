import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { ggufChunks, type MetadataValue, type TensorSpec } from './gguf.ts';

/**
 * A Llama-architecture model with random weights and a byte-level vocabulary: token i < 256 is the
 * byte i (spelt as GPT-2's byte-to-Unicode table, so llama.cpp's BPE tokenizer with no merges maps
 * every byte of any text to one token), then BOS and EOS. Its output is noise, but llama.cpp runs it
 * exactly as it runs a real Llama: same graph, same KV cache, same cost per token at these sizes.
 */
export interface RandomLlamaShape {
  embedding: number;
  layers: number;
  feedForward: number;
  heads: number;
  kvHeads: number;
  contextLength: number;
  seed: number;
}

/**
 * Sized for calibration tests on one CPU thread: prefill costs ≈ 0.35 ms per token, far above the
 * fixed per-request cost, and stays close to linear in prompt length at the lengths the tests use
 * (attention, the quadratic part, grows with embedding × context while the feed-forward grows with
 * embedding × feedForward, so a wide feed-forward keeps it small: ≈ 8 % of prefill at 1,024 tokens).
 * Only the first layer's feed-forward runs for every prompt token (llama.cpp computes the last
 * layer's only for the tokens whose logits it needs), so two layers are the least that show it.
 * The file is ≈ 53 MB of F32; measured figures in docs/llama-engine.md.
 */
export const DEFAULT_SHAPE: RandomLlamaShape = {
  embedding: 256,
  layers: 2,
  feedForward: 8192,
  heads: 4,
  kvHeads: 2,
  contextLength: 16384,
  seed: 1,
};

export const BYTE_TOKENS = 256;
export const BOS_ID = 256;
export const EOS_ID = 257;
export const VOCAB_SIZE = 258;

/** GPT-2's byte-to-Unicode table: printable Latin-1 bytes stand for themselves, the rest for U+0100 onwards. */
function byteToUnicode(): string[] {
  const printable = (b: number) => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  const out: string[] = [];
  let next = 0;
  for (let b = 0; b < 256; b++) out.push(String.fromCodePoint(printable(b) ? b : 256 + next++));
  return out;
}

/** Bytes a random model may emit at temperature 0: printable ASCII, so every streamed chunk is text. */
export function isEmittable(token: number): boolean {
  return token >= 0x20 && token <= 0x7e;
}

/** mulberry32: a small seeded PRNG, so the same shape always gives the same file. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Metadata keys and tensor names as llama.cpp's `llama` architecture reads them (src/llama-arch.cpp). */
export function randomLlama(shape: RandomLlamaShape): { metadata: Map<string, MetadataValue>; tensors: TensorSpec[] } {
  const { embedding: d, layers, feedForward: ff, heads, kvHeads, contextLength, seed } = shape;
  if (d % heads !== 0 || heads % kvHeads !== 0)
    throw new RangeError('embedding must divide by heads, heads by kvHeads');
  const headDim = d / heads;
  const kvDim = headDim * kvHeads;
  const next = random(seed);
  /** Uniform with the variance of fan-in scaling, so activations stay near unit size through the layers. */
  const matrix = (rows: number, cols: number, keepRow: (r: number) => boolean = () => true) => {
    const data = new Float32Array(rows * cols);
    const bound = Math.sqrt(3 / cols);
    for (let r = 0; r < rows; r++) {
      if (!keepRow(r)) continue;
      for (let c = 0; c < cols; c++) data[r * cols + c] = (next() * 2 - 1) * bound;
    }
    return data;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);
  const tensors: TensorSpec[] = [
    { name: 'token_embd.weight', dims: [d, VOCAB_SIZE], data: matrix(VOCAB_SIZE, d) },
    { name: 'output_norm.weight', dims: [d], data: ones(d) },
    // Rows of all other tokens are zero: their logit is 0 while some printable row's is positive
    // (all 95 being negative has probability 2^-95), so greedy decoding never ends early.
    { name: 'output.weight', dims: [d, VOCAB_SIZE], data: matrix(VOCAB_SIZE, d, isEmittable) },
  ];
  for (let i = 0; i < layers; i++) {
    const p = `blk.${i}.`;
    tensors.push(
      { name: `${p}attn_norm.weight`, dims: [d], data: ones(d) },
      { name: `${p}attn_q.weight`, dims: [d, d], data: matrix(d, d) },
      { name: `${p}attn_k.weight`, dims: [d, kvDim], data: matrix(kvDim, d) },
      { name: `${p}attn_v.weight`, dims: [d, kvDim], data: matrix(kvDim, d) },
      { name: `${p}attn_output.weight`, dims: [d, d], data: matrix(d, d) },
      { name: `${p}ffn_norm.weight`, dims: [d], data: ones(d) },
      { name: `${p}ffn_gate.weight`, dims: [d, ff], data: matrix(ff, d) },
      { name: `${p}ffn_up.weight`, dims: [d, ff], data: matrix(ff, d) },
      { name: `${p}ffn_down.weight`, dims: [ff, d], data: matrix(d, ff) },
    );
  }
  const u32 = (value: number): MetadataValue => ({ type: 'uint32', value });
  const tokens = [...byteToUnicode(), '<|bos|>', '<|eos|>'];
  const metadata = new Map<string, MetadataValue>([
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'prompt-lens random llama' }],
    ['llama.context_length', u32(contextLength)],
    ['llama.embedding_length', u32(d)],
    ['llama.block_count', u32(layers)],
    ['llama.feed_forward_length', u32(ff)],
    ['llama.attention.head_count', u32(heads)],
    ['llama.attention.head_count_kv', u32(kvHeads)],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-5 }],
    ['llama.rope.dimension_count', u32(headDim)],
    ['llama.rope.freq_base', { type: 'float32', value: 10000 }],
    ['llama.vocab_size', u32(VOCAB_SIZE)],
    ['tokenizer.ggml.model', { type: 'string', value: 'gpt2' }],
    ['tokenizer.ggml.pre', { type: 'string', value: 'default' }],
    ['tokenizer.ggml.tokens', { type: 'string[]', value: tokens }],
    // 1 = normal, 3 = control (llama_token_type).
    ['tokenizer.ggml.token_type', { type: 'int32[]', value: tokens.map((_, i) => (i < BYTE_TOKENS ? 1 : 3)) }],
    ['tokenizer.ggml.merges', { type: 'string[]', value: [] }],
    ['tokenizer.ggml.bos_token_id', u32(BOS_ID)],
    ['tokenizer.ggml.eos_token_id', u32(EOS_ID)],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
  ]);
  return { metadata, tensors };
}

/** Writes the model to `path`; returns its size in bytes. */
export async function writeRandomLlama(path: string, shape: RandomLlamaShape = DEFAULT_SHAPE): Promise<number> {
  const { metadata, tensors } = randomLlama(shape);
  const out = createWriteStream(path);
  let size = 0;
  for (const chunk of ggufChunks(metadata, tensors)) {
    size += chunk.length;
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return size;
}
