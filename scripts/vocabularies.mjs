// Shared by esbuild.mjs and the test-runner build.
import { createRequire } from 'node:module';

const LLAMA3 = 'llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs';

/**
 * Vocabularies are megabytes of data: each is bundled into its own file under dist/vocab/ and
 * required only when a tokenizer is first used, so activation never parses one.
 */
export const vocabularies = {
  'gpt-tokenizer/bpeRanks/o200k_base': 'o200k_base',
  'gpt-tokenizer/bpeRanks/cl100k_base': 'cl100k_base',
  [LLAMA3]: 'llama3',
};

/** @type {import('esbuild').Plugin} */
export const vocabularyPlugin = {
  name: 'vocabulary-split',
  setup(build) {
    const filter = new RegExp(
      `^(${Object.keys(vocabularies)
        .map((s) => s.replace(/[/.]/g, '\\$&'))
        .join('|')})$`,
    );
    build.onResolve({ filter }, (args) => ({ path: `./vocab/${vocabularies[args.path]}.js`, external: true }));
  },
};

/**
 * For the vocabulary files themselves. llama3-tokenizer-js builds a whole tokenizer (merges
 * included) when required, 0.4–0.9 s, and the core reads only its `vocabById`; so dist/vocab/llama3.js
 * is generated at build time with just that, in the same shape, as one JSON string (fast to parse).
 * @type {import('esbuild').Plugin}
 */
export const vocabularyDataPlugin = {
  name: 'vocabulary-data',
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${LLAMA3.replace(/[/.]/g, '\\$&')}$`) }, (args) => ({
      path: args.path,
      namespace: 'llama3-vocabulary',
    }));
    build.onLoad({ filter: /.*/, namespace: 'llama3-vocabulary' }, (args) => {
      const { vocabById } = createRequire(import.meta.url)(args.path).llama3Tokenizer;
      return {
        contents: `module.exports = { llama3Tokenizer: { vocabById: JSON.parse(${JSON.stringify(JSON.stringify(vocabById))}) } };`,
        loader: 'js',
      };
    });
  },
};
