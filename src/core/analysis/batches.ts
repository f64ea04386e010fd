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
