// Bundles the extension host entry, its analysis and simulator workers, the CLI and (lazily loaded) tokenizer vocabularies.
// Usage: node esbuild.mjs [--production] [--watch] [--outdir=DIR] [--cli]
// --outdir: where the bundles go (default dist; unit tests build into a temporary folder); --cli: only what
// the CLI runs (cli.js, the Artillery processor beside it, the vocabularies).
import * as esbuild from 'esbuild';
import { existsSync, readdirSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { vocabularies, vocabularyDataPlugin, vocabularyPlugin } from './scripts/vocabularies.mjs';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const cliOnly = process.argv.includes('--cli');
const outdir = process.argv.find((a) => a.startsWith('--outdir='))?.slice('--outdir='.length) || 'dist';

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Source maps for development builds only: the packaged extension ships none.
  sourcemap: !production,
  sourcesContent: false,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  // jsonc-parser's main entry is a UMD build whose dynamic requires a bundle cannot follow.
  alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
};

/** Each src/webview/<view>/main.ts becomes dist/webview/<view>.js (+ .css when it imports styles). */
const webviews = Object.fromEntries(
  readdirSync('src/webview', { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`src/webview/${d.name}/main.ts`))
    .map((d) => [d.name, `src/webview/${d.name}/main.ts`]),
);

const extension = {
  ...common,
  entryPoints: {
    extension: 'src/extension/extension.ts',
    'analysis.worker': 'src/extension/analysis/analysis.worker.ts',
    'simulator.worker': 'src/extension/bench/simulator.worker.ts',
  },
  outdir,
  external: ['vscode'],
  plugins: [vocabularyPlugin],
};
const builds = [
  {
    ...common,
    // The stream worker beside the CLI and the extension: runBenchmark's high-concurrency levels use it.
    entryPoints: { cli: 'src/cli/main.ts', 'stream.worker': 'src/core/bench/stream.worker.ts' },
    outdir,
    banner: { js: '#!/usr/bin/env node' },
    plugins: [vocabularyPlugin],
  },
  {
    ...common,
    // Artillery's processor: the benchmark runner and client with o200k_base in one file that needs
    // nothing beside it (`bench --export artillery` appends the run; see docs/interop.md).
    sourcemap: false,
    entryPoints: { 'artillery-processor': 'src/core/interop/artillery/processor.ts' },
    outdir,
  },
  {
    ...common,
    sourcemap: false,
    minify: true,
    entryPoints: Object.fromEntries(Object.entries(vocabularies).map(([spec, name]) => [`vocab/${name}`, spec])),
    outdir,
    plugins: [vocabularyDataPlugin],
  },
];
if (!cliOnly) builds.push(extension);
if (!cliOnly && Object.keys(webviews).length > 0) {
  builds.push({
    ...common,
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    entryPoints: webviews,
    outdir: `${outdir}/webview`,
  });
}

const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
if (watch) {
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(contexts.map((c) => c.rebuild()));
  await Promise.all(contexts.map((c) => c.dispose()));
  await chmod(`${outdir}/cli.js`, 0o755);
}
