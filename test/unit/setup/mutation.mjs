// Loaded only by `npm run mutate` (stryker.config.mjs), after tsx and vocabularies.mjs. Stryker runs every mutant in
// the same long-lived test process, so state a run leaves behind must not decide the next one:
// - every tokenizer (and the small ones of test/unit/helpers/tinyVocabularies.ts) is built here, while no mutant is
//   active: one first built inside a mutant's run would keep that mutant's damage for the runs after it (mutants in
//   construction code are then "static", and Stryker ignores them: ignoreStatic);
// - their merge caches are emptied before each test, so a test never reads merges that an earlier test or mutant
//   computed (a mutant in the merge loop would otherwise run against cached results, and a cached wrong result would
//   fail the next mutant's tests);
// - property tests run at most MUTATION_RUNS cases and corpora are small (test/unit/helpers/fuzz.ts).
import { createRequire } from 'node:module';

process.env.MUTATION_RUNS ??= '25';

const require = createRequire(import.meta.url);
const { getTokenizer } = require('../../../src/core/tokenize/registry.ts');
const { TOKENIZER_IDS } = require('../../../src/core/tokenize/types.ts');
const { TINY_TOKENIZERS } = require('../helpers/tinyVocabularies.ts');
const tokenizers = [...TOKENIZER_IDS.map((id) => getTokenizer(id)), ...Object.values(TINY_TOKENIZERS).map((t) => t())];
// A reference built with our code: mutationReferences.mjs, for the selections whose tests use it.

export const mochaHooks = {
  beforeEach() {
    for (const tokenizer of tokenizers) tokenizer.clearCache?.();
  },
};
