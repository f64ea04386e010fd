import type { ReportFileInput } from '../findings/report';
import { decodeFileText } from '../prompt/fileText';

/**
 * Consecutive runs of `items` whose `size`s add up to at most `limit` each (an item larger than `limit` goes alone), in
 * order: how the workspace scan is sent to the analysis worker, a message at a time.
 */
export function* batches<T>(items: Iterable<T>, limit: number, size: (item: T) => number): Generator<T[]> {
  let batch: T[] = [];
  let total = 0;
  for (const item of items) {
    const weight = size(item);
    if (batch.length > 0 && total + weight > limit) {
      yield batch;
      batch = [];
      total = 0;
    }
    batch.push(item);
    total += weight;
  }
  if (batch.length > 0) yield batch;
}

/** A prompt file for the workspace scan: its text (an open document, as edited) or its bytes as read from disk. */
export type ScanSource = { path: string; text: string } | { path: string; bytes: Uint8Array };

/**
 * A batch of the scan as one message: the bytes of every file read from disk, end to end in one buffer of its own
 * that the host hands to the worker (transferred, not copied), which decodes them. Cloning the decoded texts into the
 * message, and decoding them, had held the extension host 15–50 ms per megabyte (host CPU profile of the hover probe).
 */
export interface PackedSources {
  /** Open documents carry their text; a file from disk, where its bytes end in `bytes`. */
  files: Array<{ path: string; text: string } | { path: string; end: number }>;
  bytes: Uint8Array;
}

/** The size a source adds to a batch. */
export function sourceSize(source: ScanSource): number {
  return 'text' in source ? source.text.length : source.bytes.byteLength;
}

export function packSources(sources: readonly ScanSource[]): PackedSources {
  let length = 0;
  for (const source of sources) if ('bytes' in source) length += source.bytes.byteLength;
  // A buffer of its own: a file's bytes may be a view on a shared pool, which a transfer would take away.
  const bytes = new Uint8Array(length);
  let end = 0;
  const files = sources.map((source) => {
    if ('text' in source) return { path: source.path, text: source.text };
    bytes.set(source.bytes, end);
    end += source.bytes.byteLength;
    return { path: source.path, end };
  });
  return { files, bytes };
}

/** The sources' texts, each file's bytes decoded as every surface decodes a prompt file. */
export function unpackSources(packed: PackedSources): ReportFileInput[] {
  let start = 0;
  return packed.files.map((file) => {
    if ('text' in file) return file;
    const text = decodeFileText(packed.bytes.subarray(start, file.end));
    start = file.end;
    return { path: file.path, text };
  });
}
