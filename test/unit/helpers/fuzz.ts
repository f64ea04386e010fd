import type fc from 'fast-check';

/**
 * Under mutation testing (`npm run mutate`: stryker.config.mjs sets MUTATION_RUNS) every property
 * runs at most that many cases, and `sized` inputs are small: each mutant re-runs the tests that
 * reach it, so a suite's cost is paid once per mutant. The generators and cases are the same.
 */
const MUTATION_RUNS = Number(process.env.MUTATION_RUNS);
export const underMutation = Number.isInteger(MUTATION_RUNS) && MUTATION_RUNS > 0;

/**
 * fast-check parameters for a property: in `npm test` a fixed seed and a small run count (bounded
 * time, reproducible); under `npm run fuzz` (FUZZ_RUNS set) that many runs, with FUZZ_SEED or a
 * random seed, which fast-check prints with any counterexample so a failure can be replayed.
 * A `cheap` property (milliseconds for all its runs) keeps its run count under mutation testing.
 */
export function fuzzParams(seed: number, numRuns: number, cheap = false): fc.Parameters<unknown> {
  if (underMutation && !cheap) return { seed, numRuns: cappedRuns(numRuns) };
  const runs = Number(process.env.FUZZ_RUNS);
  if (!Number.isInteger(runs) || runs <= 0) return { seed, numRuns };
  const fixed = Number(process.env.FUZZ_SEED);
  return { seed: Number.isInteger(fixed) ? fixed : Math.floor(Math.random() * 2 ** 31), numRuns: runs };
}

/** `numRuns` for a property with its own fixed parameters: as given, or MUTATION_RUNS under mutation testing. */
export function cappedRuns(numRuns: number): number {
  return underMutation ? Math.min(numRuns, MUTATION_RUNS) : numRuns;
}

/** The size of a generated input (a corpus's characters): `full`, or `small` under mutation testing. */
export function sized(full: number, small: number): number {
  return underMutation ? small : full;
}
