// Bundles the integration suites and the runner into test/vscode-runner and packages it as a .vsix.
// The suites live inside that extension's folder so `require('vscode')` resolves in the host.
import * as esbuild from 'esbuild';
import { cpSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createVSIX } from '@vscode/vsce';
import { ROOT } from './vscode-host.mjs';
import { vocabularyPlugin } from './vocabularies.mjs';

const RUNNER = join(ROOT, 'test/vscode-runner');

export async function buildTestRunner() {
  rmSync(join(RUNNER, 'dist'), { recursive: true, force: true });
  const suites = readdirSync(join(ROOT, 'test/integration/suites')).filter((f) => f.endsWith('.test.ts'));
  const common = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
    // As in esbuild.mjs: jsonc-parser's UMD entry has dynamic requires a bundle cannot follow.
    alias: { 'jsonc-parser': 'jsonc-parser/lib/esm/main.js' },
  };
  await esbuild.build({
    ...common,
    entryPoints: [join(ROOT, 'test/integration/runner.ts')],
    outfile: join(RUNNER, 'dist/runner.js'),
  });
  await esbuild.build({
    ...common,
    entryPoints: [join(ROOT, 'test/integration/electronEntry.ts')],
    outfile: join(RUNNER, 'dist/electron-entry.js'),
  });
  await esbuild.build({
    ...common,
    entryPoints: [...suites, 'before-reload.ts'].map((f) => join(ROOT, 'test/integration/suites', f)),
    outdir: join(RUNNER, 'dist/suites'),
    plugins: [vocabularyPlugin],
  });
  // The suites compare with the core's own counts, so they need the vocabularies the bundle built.
  cpSync(join(ROOT, 'dist/vocab'), join(RUNNER, 'dist/suites/vocab'), { recursive: true });
  const vsix = join(ROOT, 'dist/prompt-lens-test-runner.vsix');
  await createVSIX({
    cwd: RUNNER,
    packagePath: vsix,
    dependencies: false,
    allowMissingRepository: true,
    skipLicense: true,
  });
  return vsix;
}
