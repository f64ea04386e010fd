// Loaded by mocha before the tests (.mocharc.json): the tokenizer registry gets the same compact
// vocabularies the bundle ships (scripts/vocabularies.mjs) instead of each 8–33 MB tokenizer.json,
// so tests run the shipped data and load it in the product's time. Only the registry's requires are
// redirected; the reference tests read the full tokenizer.json.
import Module from 'node:module';
import { compactSpecs, compactVocabularyPath } from '../../../scripts/vocabularies.mjs';

const compact = new Map(compactSpecs.map((spec) => [spec, compactVocabularyPath(spec)]));
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const path = compact.get(request);
  if (path && parent?.filename?.replaceAll('\\', '/').endsWith('src/core/tokenize/registry.ts')) return path;
  return resolve.call(this, request, parent, ...rest);
};
