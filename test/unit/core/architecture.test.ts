import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const CORE = join(__dirname, '../../../src/core');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('architecture', () => {
  it("the README stays the user's page: under 20,000 bytes (detail goes to docs/)", () => {
    const bytes = statSync(join(__dirname, '../../../README.md')).size;
    assert.ok(bytes < 20_000, `README.md is ${bytes} bytes; move detail to docs/ or CONTRIBUTING.md`);
  });

  it('src/core never imports vscode (it must run in plain Node and the CLI)', () => {
    const files = sourceFiles(CORE);
    assert.ok(files.length > 0, 'no core sources found');
    const offenders = files.filter((file) =>
      /(from\s+|require\(\s*|import\(\s*)['"]vscode['"]/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });

  it('src/core imports nothing from the adapters', () => {
    const offenders = sourceFiles(CORE).filter((file) =>
      /from\s+['"][./]+\/(extension|cli)\//.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(offenders, []);
  });
});
