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
 * A batch of the scan as one message: each file read from disk as a copy of its bytes (a buffer of its own, which the
 * host hands to the worker — transferred, not cloned — and the worker decodes). Decoding the texts and cloning them
 * into the message had held the extension host 15–50 ms per megabyte (host CPU profile of the hover probe); one fresh
 * megabyte buffer for the whole batch cost more than both (its pages are touched for the first time).
 */
export interface PackedSources {
  /** Open documents carry their text; files from disk, their bytes. */
  files: ScanSource[];
  /** The buffers to transfer with the message: every file's bytes. */
  transfer: ArrayBuffer[];
}

/** The size a source adds to a batch. */
export function sourceSize(source: ScanSource): number {
  return 'text' in source ? source.text.length : source.bytes.byteLength;
}

export function packSources(sources: readonly ScanSource[]): PackedSources {
  const transfer: ArrayBuffer[] = [];
  const files = sources.map((source) => {
    if ('text' in source) return { path: source.path, text: source.text };
    // A copy: a file's bytes may be a view on a buffer the reader shares or pools, which a transfer would take away.
    const bytes = source.bytes.slice();
    transfer.push(bytes.buffer);
    return { path: source.path, bytes };
  });
  return { files, transfer };
}

/** A source's text: a file's bytes decoded as every surface decodes a prompt file. */
export function sourceText(source: ScanSource): ReportFileInput {
  return 'text' in source ? source : { path: source.path, text: decodeFileText(source.bytes) };
}

/** The sources' texts, in order. */
export function unpackSources(packed: PackedSources): ReportFileInput[] {
  return packed.files.map(sourceText);
}
