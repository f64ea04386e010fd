import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROCESSOR_BUNDLE } from '../../../src/cli/commands/benchExport';
import { localised, packaged, ROOT as root } from '../helpers/packaging';

/** The Marketplace identity and what the VSIX carries (#25): every contributed file is packaged. */
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  icon: string;
  galleryBanner: { color: string; theme: string };
  qna: string | false;
  repository?: unknown;
  extensionKind: string[];
  capabilities: { virtualWorkspaces: { supported: string; description: string } };
  contributes: {
    languages: Array<{ configuration?: string }>;
    grammars: Array<{ path: string }>;
    snippets: Array<{ path: string }>;
    jsonValidation: Array<{ url: string }>;
  };
};

describe('manifest: Marketplace identity and packaging', () => {
  it('the icon is a 128×128 PNG and is packaged', () => {
    const png = readFileSync(join(root, manifest.icon));
    assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok(packaged(manifest.icon));
  });

  it('galleryBanner, qna and no invented repository URL', () => {
    assert.match(manifest.galleryBanner.color, /^#[0-9a-f]{6}$/i);
    assert.ok(['dark', 'light'].includes(manifest.galleryBanner.theme));
    assert.equal(manifest.qna, 'marketplace');
    assert.equal(manifest.repository, undefined);
  });

  it('every file a contribution points at is packaged, and nothing from src/, test/ or data/ is', () => {
    const paths = [
      ...manifest.contributes.grammars.map((g) => g.path),
      ...manifest.contributes.snippets.map((s) => s.path),
      ...manifest.contributes.jsonValidation.map((v) => v.url),
      ...manifest.contributes.languages.flatMap((l) => (l.configuration ? [l.configuration] : [])),
    ].map((p) => p.replace(/^\.\//, ''));
    assert.ok(paths.length >= 6);
    for (const path of paths) {
      assert.ok(packaged(path), `${path} is not in the VSIX (.vscodeignore)`);
      readFileSync(join(root, path)); // exists
    }
    for (const path of [
      'src/extension/extension.ts',
      'test/unit/core/manifest.test.ts',
      'data/models.json',
      'media/icon.svg',
      // The reviewed screenshots of every surface (#15) are for the docs, not the VSIX.
      'media/screenshots/review/compare-dark-1000.png',
    ])
      assert.ok(!packaged(path), `${path} would be packaged`);
  });

  it('the CLI it ships has what it reads beside itself: the Artillery processor bundle (bench --export artillery) and the stream worker', () => {
    assert.ok(packaged('dist/cli.js'));
    assert.ok(packaged(`dist/${PROCESSOR_BUNDLE}`), `dist/${PROCESSOR_BUNDLE} is not in the VSIX (.vscodeignore)`);
    // runBenchmark's stream workers, beside the CLI and the extension (high-concurrency levels).
    assert.ok(packaged('dist/stream.worker.js'), 'dist/stream.worker.js is not in the VSIX (.vscodeignore)');
    // Built beside the CLI by the one build script.
    assert.match(
      readFileSync(join(root, 'esbuild.mjs'), 'utf8'),
      /'artillery-processor': 'src\/core\/interop\/artillery\/processor\.ts'/,
    );
    assert.equal(PROCESSOR_BUNDLE, 'artillery-processor.js');
  });

  it('declares where it runs: the workspace side, limited in virtual workspaces', () => {
    assert.deepEqual(manifest.extensionKind, ['workspace']);
    assert.equal(manifest.capabilities.virtualWorkspaces.supported, 'limited');
    assert.match(localised(manifest.capabilities.virtualWorkspaces.description) ?? '', /promptLens\.tableFile/);
  });
});
