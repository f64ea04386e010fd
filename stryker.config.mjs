// Mutation testing (#23): `npm run mutate`, or `MUTATE=stats,estimate npm run mutate` for some modules only.
// Each module is mutated with only the unit tests that exercise it, and perTest coverage then runs, for each
// mutant, only the tests that reach it. CONTRIBUTING.md ("Mutation testing") has the scores, the run times and why
// the TypeScript checker is not on.
const modules = {
  stats: {
    mutate: ['src/core/bench/stats.ts'],
    spec: ['test/unit/core/bench/stats.test.ts', 'test/unit/core/bench/cacheSpeedup.test.ts'],
  },
  // stop.ts: the request's timeout and cancel, split out of client.ts (#18 item 4).
  client: {
    mutate: ['src/core/bench/client.ts', 'src/core/bench/stop.ts'],
    spec: [
      'test/unit/core/bench/client.test.ts',
      'test/unit/core/bench/hardening.test.ts',
      'test/unit/core/bench/redaction.test.ts',
      'test/unit/core/bench/stop.test.ts',
    ],
  },
  // selfHosted.ts is the prefill/decode model the estimate's TTFT and TPOT come from.
  estimate: {
    mutate: ['src/core/estimate/estimate.ts', 'src/core/estimate/cost.ts', 'src/core/estimate/selfHosted.ts'],
    spec: [
      'test/unit/core/estimate/*.test.ts',
      'test/unit/core/sim/targetLatency.test.ts',
      'test/unit/cli/estimate.test.ts',
      'test/unit/cli/pricing.test.ts',
    ],
  },
  calibrate: {
    mutate: ['src/core/calibrate/**/*.ts'],
    spec: ['test/unit/core/calibrate/*.test.ts', 'test/unit/cli/calibrate.test.ts'],
  },
  // test/unit/setup/mutation.mjs builds every tokenizer before the tests, empties their merge caches before each test
  // and caps property runs and corpus sizes (CONTRIBUTING.md, "Mutation testing"). tokenizeUnits.test.ts runs first:
  // its exact values kill most mutants in milliseconds, before a reference suite is reached. The split patterns are
  // their own selection: they are compiled while the files load, so each of their mutants restarts the test process,
  // which costs seconds with two small test files and minutes with the reference suites.
  tokenize: {
    mutate: ['src/core/tokenize/**/*.ts', '!src/core/tokenize/patterns.ts', '!src/core/tokenize/asciiSplit.ts'],
    spec: [
      'test/unit/core/tokenizeUnits.test.ts',
      'test/unit/core/incremental.test.ts',
      'test/unit/core/tokenize.test.ts',
      'test/unit/core/tokenizerFuzz.test.ts',
      'test/unit/core/openWeightTokenizers.test.ts',
    ],
    setup: ['test/unit/setup/mutation.mjs', 'test/unit/setup/mutationReferences.mjs'],
  },
  // The tokenize files outside the BPE engines and their vocabularies, with the tests that reach them and no reference
  // suite (a part of `tokenize`, for a machine too busy to run it whole).
  'tokenize-count': {
    mutate: [
      'src/core/tokenize/approximate.ts',
      'src/core/tokenize/boundaries.ts',
      'src/core/tokenize/chatOverhead.ts',
      'src/core/tokenize/countMemo.ts',
      'src/core/tokenize/incremental.ts',
      'src/core/tokenize/models.ts',
      'src/core/tokenize/registry.ts',
      'src/core/tokenize/sampled.ts',
      'src/core/tokenize/sliced.ts',
    ],
    spec: [
      'test/unit/core/tokenizeUnits.test.ts',
      'test/unit/core/incremental.test.ts',
      'test/unit/core/tokenize.test.ts',
    ],
    setup: ['test/unit/setup/mutation.mjs'],
  },
  // The BPE engines and their vocabularies' conversions, with the fast tests only: each mutant runs in milliseconds, and
  // a mutant that loops forever (a merge loop that never ends) is cut after 5 s instead of 20 s. Their construction code
  // runs in the setup, with no mutant active, so Stryker ignores its mutants (static); the engines' tests with small
  // hand-made vocabularies (test/unit/helpers/tinyVocabularies.ts) reach the paths the shipped vocabularies do not.
  'tokenize-engines': {
    mutate: [
      'src/core/tokenize/bpe.ts',
      'src/core/tokenize/byteLevel.ts',
      'src/core/tokenize/families.ts',
      'src/core/tokenize/llama3.ts',
      'src/core/tokenize/o200k.ts',
      'src/core/tokenize/sentencePiece.ts',
      'src/core/tokenize/vocabulary.ts',
    ],
    spec: ['test/unit/core/tokenizeUnits.test.ts', 'test/unit/core/tokenizeEngines.test.ts'],
    setup: ['test/unit/setup/mutation.mjs'],
    timeoutMS: 5000,
  },
  'tokenize-split': {
    mutate: ['src/core/tokenize/patterns.ts', 'src/core/tokenize/asciiSplit.ts'],
    spec: ['test/unit/core/patterns.test.ts', 'test/unit/core/asciiSplit.test.ts'],
  },
  findings: {
    mutate: ['src/core/findings/**/*.ts'],
    spec: ['test/unit/findings/*.test.ts'],
  },
};

const names = process.env.MUTATE
  ? process.env.MUTATE.split(',')
  : Object.keys(modules).filter((n) => n !== 'tokenize-count' && n !== 'tokenize-engines'); // (parts of tokenize)
const unknown = names.filter((n) => !(n in modules));
if (unknown.length)
  throw new Error(`MUTATE: no module ${unknown.join(', ')}; modules: ${Object.keys(modules).join(', ')}`);
const chosen = names.map((n) => modules[n]);
// One incremental file and one report per selection, so a run of some modules keeps the others' results.
const tag = process.env.MUTATE ? names.join('-') : 'all';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  mochaOptions: {
    spec: [...new Set(chosen.flatMap((m) => m.spec))],
    // .mocharc.json's, then each chosen module's own setup.
    require: ['tsx/cjs', 'test/unit/setup/vocabularies.mjs', ...new Set(chosen.flatMap((m) => m.setup ?? []))],
  },
  mutate: chosen.flatMap((m) => m.mutate),
  // The TypeScript checker drops mutants that do not compile; it type-checks each one, which took ~4 s per mutant
  // here (CONTRIBUTING.md), so it is opt-in. Without it such mutants run under tsx and are mostly killed.
  ...(process.env.MUTATE_CHECK
    ? {
        checkers: ['typescript'],
        tsconfigFile: 'tsconfig.mutate.json',
        typescriptChecker: { prioritizePerformanceOverAccuracy: true },
      }
    : {}),
  coverageAnalysis: 'perTest',
  // Mutants in module-level code need every test re-run; Stryker reports them as ignored, not scored.
  ignoreStatic: true,
  // A re-run tests only the mutants whose code or covering tests changed.
  incremental: true,
  incrementalFile: `reports/mutation/${tag}.incremental.json`,
  concurrency: 2,
  // 20 s after the expected time, or a selection's own limit (with several selections, the largest).
  timeoutMS: Math.max(...chosen.map((m) => m.timeoutMS ?? 20000)),
  // The first run of every selected test, instrumented, on a busy 2-core machine takes minutes.
  dryRunTimeoutMinutes: 30,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${tag}.html` },
  jsonReporter: { fileName: `reports/mutation/${tag}.json` },
  // examples/ stays in the sandbox: the token-correction tests read examples/support.prompt.
  ignorePatterns: ['media', 'docs', 'tools', 'dist', 'out', '.vscode-host', '.test-output', 'reports'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
