import type fc from 'fast-check';

/**
 * fast-check parameters for a property: in `npm test` a fixed seed and a small run count (bounded
 * time, reproducible); under `npm run fuzz` (FUZZ_RUNS set) that many runs, with FUZZ_SEED or a
 * random seed, which fast-check prints with any counterexample so a failure can be replayed.
 */
export function fuzzParams(seed: number, numRuns: number): fc.Parameters<unknown> {
  const runs = Number(process.env.FUZZ_RUNS);
  if (!Number.isInteger(runs) || runs <= 0) return { seed, numRuns };
  const fixed = Number(process.env.FUZZ_SEED);
  return { seed: Number.isInteger(fixed) ? fixed : Math.floor(Math.random() * 2 ** 31), numRuns: runs };
}
