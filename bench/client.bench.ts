// `npm run bench -- client`: the streaming client's timing error (clientAccuracy.ts). The bench, its
// load server and its stream worker run as bundles built as the product's are (esbuild.mjs
// --production: minified, no keepNames), in a fresh process, not through tsx: tsx keeps every named
// function's name with a call per closure made (`__name`), which gave each open stream 9.7 KB that
// lived as long as the stream instead of the shipped bundle's 6.4 KB, and the stream workers' young-
// generation collections copied that much more (at 1,000 streams their pauses reached 10–18 ms).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

export async function run(): Promise<void> {
  const outdir = mkdtempSync(join(tmpdir(), 'prompt-lens-client-bench-'));
  try {
    await build({
      entryPoints: ['clientAccuracy', 'loadServer', 'streamWorker'].map((name) => join(__dirname, `${name}.ts`)),
      outdir,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      minify: true,
      logLevel: 'warning',
    });
    const child = spawnSync(process.execPath, [join(outdir, 'clientAccuracy.js')], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`the client bench exited with ${child.status ?? child.signal}`);
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
