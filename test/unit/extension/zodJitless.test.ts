import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** The extension host runs zod without compiled parsers (src/extension/zodJitless.ts): it must validate the same. */
describe("zod without compiled parsers (the extension host's setting)", function () {
  this.timeout(120_000);
  const run = (jitless: boolean) =>
    JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures/zodResults.ts')], {
        env: { ...process.env, ZOD_JITLESS: jitless ? '1' : '0' },
        encoding: 'utf8',
      }),
    ) as { tables: Record<string, unknown[]>; problems: unknown[]; settings: { problems: unknown[] } };

  it('gives the same tables, table problems, settings and settings problems', () => {
    const [compiled, jitless] = [run(false), run(true)];
    assert.ok(
      compiled.tables.providers!.length > 10 && compiled.problems.length >= 3,
      JSON.stringify(compiled.problems),
    );
    assert.ok(compiled.settings.problems.length >= 3, JSON.stringify(compiled.settings.problems));
    assert.deepEqual(jitless, compiled);
  });
});
