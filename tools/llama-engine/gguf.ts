/**
 * A minimal GGUF v3 writer: what llama.cpp needs to load a model file, no more.
 *
 * Layout (https://github.com/ggml-org/ggml/blob/master/docs/gguf.md), all little-endian:
 *   magic "GGUF" · u32 version (3) · u64 tensor count · u64 metadata count
 *   metadata: { string key · u32 value type · value }*
 *   tensor infos: { string name · u32 n_dims · u64 dims[n_dims] (fastest-varying first) · u32 ggml type · u64 offset }*
 *   padding to `general.alignment` (32) · tensor data, each tensor at its offset, each offset aligned
 * A string is u64 byte length + UTF-8 bytes (no terminator); an array is u32 element type + u64 count + elements.
 */

/** GGUF metadata value types (gguf_type). */
const GGUF_TYPE = {
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
} as const;

/** ggml tensor types used here (ggml_type): plain 32-bit floats, the simplest to write and to check. */
export const GGML_TYPE_F32 = 0;

export type MetadataValue =
  | { type: 'uint32'; value: number }
  | { type: 'int32'; value: number }
  | { type: 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'string[]'; value: readonly string[] }
  | { type: 'int32[]'; value: readonly number[] };

export interface TensorSpec {
  name: string;
  /** Dimensions in ggml order: the first is the fastest-varying (a row's length). */
  dims: readonly number[];
  /** Row-major data of prod(dims) elements; written as F32. */
  data: Float32Array;
}

export const ALIGNMENT = 32;

/** Serialises a GGUF v3 file: the header and tensor infos, then each tensor's data at its aligned offset. */
export function* ggufChunks(
  metadata: ReadonlyMap<string, MetadataValue>,
  tensors: readonly TensorSpec[],
): Generator<Uint8Array> {
  const header = new ByteWriter();
  header.bytes(new TextEncoder().encode('GGUF'));
  header.u32(3);
  header.u64(tensors.length);
  header.u64(metadata.size + 1);
  header.string('general.alignment');
  header.u32(GGUF_TYPE.uint32);
  header.u32(ALIGNMENT);
  for (const [key, value] of metadata) {
    header.string(key);
    writeValue(header, value);
  }
  let offset = 0;
  for (const t of tensors) {
    const elements = t.dims.reduce((n, d) => n * d, 1);
    if (elements !== t.data.length)
      throw new RangeError(`${t.name}: dims ${t.dims.join('×')} hold ${elements} elements, data has ${t.data.length}`);
    header.string(t.name);
    header.u32(t.dims.length);
    for (const d of t.dims) header.u64(d);
    header.u32(GGML_TYPE_F32);
    header.u64(offset);
    offset = align(offset + t.data.byteLength);
  }
  header.pad();
  yield header.finish();
  for (const t of tensors) {
    yield new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    const padding = align(t.data.byteLength) - t.data.byteLength;
    if (padding > 0) yield new Uint8Array(padding);
  }
}

function align(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}

function writeValue(w: ByteWriter, v: MetadataValue): void {
  switch (v.type) {
    case 'uint32':
      w.u32(GGUF_TYPE.uint32);
      return w.u32(v.value);
    case 'int32':
      w.u32(GGUF_TYPE.int32);
      return w.i32(v.value);
    case 'float32':
      w.u32(GGUF_TYPE.float32);
      return w.f32(v.value);
    case 'bool':
      w.u32(GGUF_TYPE.bool);
      return w.u8(v.value ? 1 : 0);
    case 'string':
      w.u32(GGUF_TYPE.string);
      return w.string(v.value);
    case 'string[]':
      w.u32(GGUF_TYPE.array);
      w.u32(GGUF_TYPE.string);
      w.u64(v.value.length);
      for (const s of v.value) w.string(s);
      return;
    case 'int32[]':
      w.u32(GGUF_TYPE.array);
      w.u32(GGUF_TYPE.int32);
      w.u64(v.value.length);
      for (const n of v.value) w.i32(n);
      return;
  }
}

/** A growable little-endian byte buffer. */
class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  private length = 0;

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.length + n));
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(n: number): void {
    this.reserve(1);
    this.view.setUint8(this.length, n);
    this.length += 1;
  }
  u32(n: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, n, true);
    this.length += 4;
  }
  i32(n: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, n, true);
    this.length += 4;
  }
  f32(n: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, n, true);
    this.length += 4;
  }
  u64(n: number): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(n), true);
    this.length += 8;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  string(s: string): void {
    const b = new TextEncoder().encode(s);
    this.u64(b.length);
    this.bytes(b);
  }
  /** Zero bytes up to the next alignment boundary, where the tensor data starts. */
  pad(): void {
    const target = align(this.length);
    this.reserve(target - this.length);
    this.buf.fill(0, this.length, target);
    this.length = target;
  }
  finish(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }
}
