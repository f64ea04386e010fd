import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = join(__dirname, '../../..');

/** The source files that contribute code to a bundle of this entry, built as esbuild.mjs builds the extension. */
async function bundledSources(entry: string): Promise<string[]> {
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
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, input]) => input.bytesInOutput > 0)
      .map(([path]) => path),
  );
}

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
});
