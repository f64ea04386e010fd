import type { BenchResult } from '../../core/bench/result';

/** Everything the results view shows; the view is a pure function of it (and restores from it). */
export interface ResultsViewState {
  /** The prompt file's workspace-relative path. */
  prompt: string;
  /** "name · model" of the endpoint being measured. */
  endpoint: string;
  /** Absent until the first level finishes. */
  result?: BenchResult;
  running: boolean;
  /** Live progress while running, e.g. "cold · c=4 · 23/40". */
  progress?: string;
  /** The previous saved run of the same prompt (same hash), for comparison. */
  previous?: BenchResult;
  /** A run put beside the shown one (*Compare Benchmark With…*): any saved or imported result. */
  compare?: BenchResult;
}
