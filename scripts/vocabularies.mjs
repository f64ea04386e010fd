// Shared by esbuild.mjs and the test-runner build.
/**
 * Vocabularies are megabytes of data: each is bundled into its own file under dist/vocab/ and
 * required only when a tokenizer is first used, so activation never parses one.
 */
export const vocabularies = {
  'gpt-tokenizer/bpeRanks/o200k_base': 'o200k_base',
  'gpt-tokenizer/bpeRanks/cl100k_base': 'cl100k_base',
  'llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs': 'llama3',
};

/** @type {import('esbuild').Plugin} */
export const vocabularyPlugin = {
  name: 'vocabulary-split',
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(vocabularies).map((s) => s.replace(/[/.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: `./vocab/${vocabularies[args.path]}.js`, external: true }));
  },
};
