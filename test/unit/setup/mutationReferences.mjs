// Loaded by `npm run mutate` after mutation.mjs, for the selections whose tests use the reference tokenizers
// (stryker.config.mjs): a reference built with our code (tiktoken with our Llama 3 rank conversion) is built here,
// while no mutant is active, for the reason mutation.mjs gives; tests load the other references when they first
// need them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { DIFFERENTIAL_PAIRS } = require('../helpers/tokenizerReferences.ts');
for (const pair of DIFFERENTIAL_PAIRS) if (pair.usesOurCode) pair.reference();
