// The client bench's stream worker: the product's (core/bench/stream.worker.ts), reporting its
// garbage-collection pauses to the bench (gcWatch.ts) first.
import './gcWatch';
import '../src/core/bench/stream.worker';
