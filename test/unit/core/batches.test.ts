import assert from 'node:assert/strict';
import { batches, packSources, sourceSize, unpackSources, type ScanSource } from '../../../src/core/analysis/batches';
import { decodeFileText } from '../../../src/core/prompt/fileText';

describe('batches (the workspace scan, a message at a time)', () => {
  it('keeps order, stays within the limit, and sends an item over the limit alone', () => {
    const sizes = [4, 3, 3, 9, 12, 1, 1, 10];
    const runs = [...batches(sizes, 10, (n) => n)];
    assert.deepEqual(runs, [[4, 3, 3], [9], [12], [1, 1], [10]]);
    assert.deepEqual(runs.flat(), sizes);
  });

  it('yields nothing for nothing, and one batch when everything fits', () => {
    assert.deepEqual([...batches([], 10, (n: number) => n)], []);
    assert.deepEqual([...batches(['a', 'bb'], 10, (s) => s.length)], [['a', 'bb']]);
  });
});

describe('packed scan batches (files from disk as bytes, transferred to the worker)', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  // A file's bytes as the host reads them can be a view on a larger, shared buffer.
  const pool = new Uint8Array(64);
  pool.set(encode('user:\nhi'), 10);
  const sources: ScanSource[] = [
    { path: 'a.prompt', bytes: encode('system:\nBe brief.\n') },
    { path: 'open.prompt', text: 'edited, unsaved \uFEFF text' },
    { path: 'bom.prompt', bytes: Uint8Array.of(0xef, 0xbb, 0xbf, ...encode('\uFEFFkept second BOM')) },
    { path: 'empty.prompt', bytes: new Uint8Array(0) },
    { path: 'bad-utf8.prompt', bytes: Uint8Array.of(0x61, 0xff, 0x62) },
    { path: 'pooled.prompt', bytes: pool.subarray(10, 18) },
    { path: 'cjk.prompt', bytes: encode('检索到的文档需要被引用。') },
  ];
  const decoded = sources.map((s) => ({ path: s.path, text: 'text' in s ? s.text : decodeFileText(s.bytes) }));

  it("unpack(pack(files)) is every file's text, in order, decoded as every surface decodes a prompt file", () => {
    const packed = packSources(sources);
    // One buffer of its own per file read from disk, exactly its bytes.
    assert.equal(packed.transfer.length, 6);
    assert.deepEqual(
      packed.transfer.map((b) => b.byteLength),
      sources.flatMap((s) => ('bytes' in s ? [s.bytes.byteLength] : [])),
    );
    assert.ok(sources.every((s) => !('bytes' in s) || !packed.transfer.includes(s.bytes.buffer as ArrayBuffer)));
    assert.deepEqual(unpackSources(packed), decoded);
    assert.deepEqual(decoded[2], { path: 'bom.prompt', text: '\uFEFFkept second BOM' });
    assert.deepEqual(decoded[5], { path: 'pooled.prompt', text: 'user:\nhi' });
  });

  it('survives the transfer to a worker, and the transfer leaves the files read (and their pool) intact', () => {
    const packed = packSources(sources);
    const received = structuredClone(packed, { transfer: packed.transfer });
    assert.ok(
      packed.transfer.every((b) => b.byteLength === 0),
      'the copies were handed over, not cloned',
    );
    assert.deepEqual(unpackSources(received), decoded);
    assert.equal(decodeFileText(pool.subarray(10, 18)), 'user:\nhi');
    assert.equal(decodeFileText((sources[0] as { bytes: Uint8Array }).bytes), 'system:\nBe brief.\n');
  });

  it('batches by characters for texts and bytes for files', () => {
    assert.deepEqual(sources.map(sourceSize), [18, 22, 3 + 18, 0, 3, 8, 36]);
    assert.deepEqual(packSources([]), { files: [], transfer: [] });
  });
});
