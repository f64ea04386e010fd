import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { buildCli, cli, ensureBuilt } from '../helpers/builtCli';

const ROOT = resolve(__dirname, '../../..');
const DIST = join(ROOT, 'dist');

/** Every file under dist/ with a hash of its content (empty when there is no dist/). */
function distFiles(): Record<string, string> {
  if (!existsSync(DIST)) return {};
  const files: Record<string, string> = {};
  for (const entry of readdirSync(DIST, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[relative(DIST, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return files;
}

describe('unit tests build the CLI outside the work tree', function () {
  this.timeout(120_000);

  it('the build goes to a temporary folder: it holds what the CLI runs, and no file under dist/ is created or changed', () => {
    const before = distFiles();
    const outdir = mkdtempSync(join(tmpdir(), 'prompt-lens-build-test-'));
    try {
      buildCli(outdir);
      for (const file of ['cli.js', 'stream.worker.js', 'artillery-processor.js', 'vocab'])
        assert.ok(existsSync(join(outdir, file)), `${file} is built beside the CLI`);
      assert.ok(!existsSync(join(outdir, 'extension.js')), 'only what the CLI runs');
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
    assert.deepEqual(distFiles(), before);
  });

  it('the CLI the tests run is that temporary build, and it counts with a vocabulary loaded from beside it', async () => {
    const path = ensureBuilt();
    assert.ok(!relative(ROOT, path).startsWith('dist'), path);
    assert.ok(relative(tmpdir(), path).split(/[\\/]/)[0]!.startsWith('prompt-lens-build-'), path);
    const run = await cli(join(ROOT, 'examples'), ['count', 'support.prompt', '--tokenizer', 'o200k_base']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\d+/);
  });
});
