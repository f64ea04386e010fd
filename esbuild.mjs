// Bundles the extension host entry, the CLI and (lazily loaded) tokenizer vocabularies.
// Usage: node esbuild.mjs [--production] [--watch]
import * as esbuild from 'esbuild';
import { chmod } from 'node:fs/promises';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');

/**
 * Vocabularies are megabytes of data: each is bundled into its own file under dist/vocab/ and
 * required only when a tokenizer is first used, so activation never parses one.
 */
const vocabularies = {
  'gpt-tokenizer/bpeRanks/o200k_base': 'o200k_base',
  'gpt-tokenizer/bpeRanks/cl100k_base': 'cl100k_base',
  'llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs': 'llama3',
};

/** @type {import('esbuild').Plugin} */
const vocabularyPlugin = {
  name: 'vocabulary-split',
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(vocabularies).map((s) => s.replace(/[/.]/g, '\\$&')).join('|')})$`);
    build.onResolve({ filter }, (args) => ({ path: `./vocab/${vocabularies[args.path]}.js`, external: true }));
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  sourcesContent: false,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const builds = [
  { ...common, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist', external: ['vscode'], plugins: [vocabularyPlugin] },
  { ...common, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' }, plugins: [vocabularyPlugin] },
  {
    ...common,
    sourcemap: false,
    minify: true,
    entryPoints: Object.fromEntries(Object.entries(vocabularies).map(([spec, name]) => [`vocab/${name}`, spec])),
    outdir: 'dist',
  },
];

const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  await chmod('dist/cli.js', 0o755);
}
