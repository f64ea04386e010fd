// The property/fuzz tests (names containing "fuzz" or "property") with many runs and a random seed
// (or FUZZ_SEED): npm run fuzz; FUZZ_RUNS=20000 npm run fuzz. A failure prints its seed and path.
import { spawnSync } from 'node:child_process';

const env = { ...process.env, FUZZ_RUNS: process.env.FUZZ_RUNS ?? '3000' };
const result = spawnSync(
  'npx',
  ['mocha', '--timeout', '0', '--grep', 'fuzz|property', '--spec', 'test/unit/**/*.test.ts'],
  { stdio: 'inherit', env },
);
process.exitCode = result.status ?? 1;
