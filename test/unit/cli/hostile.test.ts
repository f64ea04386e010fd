import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MAX_FILE_BYTES } from '../../../src/cli/promptInput';
import { cli, ensureBuilt, LIMIT_MS, type CliRun } from '../helpers/builtCli';
import { dataUrl, largeProse, writeHostileFiles } from '../helpers/hostileFiles';

/** A result (0, or 1 for a benchmark whose requests all failed) or one line on stderr with exit 2; never a crash. */
function assertHandled(run: CliRun, what: string, allowed: readonly number[] = [0]): void {
  assert.ok(run.cpuMs < LIMIT_MS, `${what}: took ${run.cpuMs.toFixed(0)} ms of CPU (NaN: killed as hung)`);
  assert.doesNotMatch(
    run.stderr,
    /\n\s+at |FATAL|Last few GCs|internal error/,
    `${what}: crashed:\n${run.stderr.slice(0, 2000)}`,
  );
  if (run.code === 2)
    assert.match(
      run.stderr,
      /^prompt-lens[^\n]*\n$/,
      `${what}: exit 2 without a one-line error: ${run.stderr.slice(0, 500)}`,
    );
  else
    assert.ok(
      run.code !== null && allowed.includes(run.code),
      `${what}: exit ${run.code}; stderr: ${run.stderr.slice(0, 500)}`,
    );
}

/** Runs `jobs` two at a time (the machine has two cores). */
async function inPairs<T>(jobs: Array<() => Promise<T>>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < jobs.length; i += 2)
    results.push(...(await Promise.all(jobs.slice(i, i + 2).map((job) => job()))));
  return results;
}

describe('hostile prompt files through the built CLI', function () {
  // Some tests run 20+ CLI processes; on the shared 2-core machine (load 15–25) that took > 120 s.
  this.timeout(900_000);
  let dir: string;
  let names: string[];

  before(function () {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'prompt-lens-hostile-'));
    names = writeHostileFiles(dir);
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  it('count gives every file a finite count, in one process, within the bounds', async () => {
    const run = await cli(dir, ['count', '--json', ...names]);
    assertHandled(run, 'count');
    const rows = JSON.parse(run.stdout) as Array<{
      file: string;
      contentTokens: number;
      exact: boolean;
      notes: string[];
    }>;
    assert.deepEqual(
      rows.map((r) => r.file),
      names,
    );
    for (const row of rows)
      assert.ok(Number.isInteger(row.contentTokens) && row.contentTokens >= 0, `${row.file}: ${row.contentTokens}`);
    const byName = new Map(rows.map((r) => [r.file, r]));
    // 300,000-character words are merged exactly (the heap merge), not cut.
    assert.equal(byName.get('long-runs.prompt')?.exact, true);
    assert.deepEqual(byName.get('long-runs.prompt')?.notes, []);
    assert.equal(byName.get('empty.prompt')?.contentTokens, 0);
  });

  it('report DIR analyses the hostile directory', async () => {
    assertHandled(await cli(dir, ['report', '.', '--include', '**/*']), 'report');
  });

  it('estimate takes every file; compare and bench the structured and binary ones', async () => {
    const estimate = names.map(
      (name) => () =>
        // Exit 1: a file over gpt-4o's context window is an error the estimate reports.
        cli(dir, ['estimate', name, '--provider', 'openai', '--model', 'gpt-4o']).then((run) =>
          assertHandled(run, `estimate ${name}`, [0, 1]),
        ),
    );
    const structured = ['deep.json', 'billion-laughs.prompt.yaml', 'binary.prompt'];
    const compare = structured.map(
      (name) => () => cli(dir, ['compare', name]).then((run) => assertHandled(run, `compare ${name}`)),
    );
    // Port 9 on 127.0.0.1 refuses: the file is read, parsed and sent, and the failure is classified.
    const bench = structured.map(
      (name) => () =>
        cli(dir, [
          'bench',
          name,
          '--base-url',
          'http://127.0.0.1:9/v1',
          '--model',
          'm',
          '--requests',
          '1',
          '--warmup',
          '0',
          '--concurrency',
          '1',
          '--timeout-ms',
          '2000',
        ]).then((run) => assertHandled(run, `bench ${name}`, [1])),
    );
    await inPairs([...estimate, ...compare, ...bench]);
  });

  it('files over --max-file-bytes: count estimates them (marked), report skips them, estimate refuses in one line', async () => {
    writeFileSync(join(dir, 'huge.prompt'), largeProse(50 * 1024 * 1024));
    writeFileSync(join(dir, 'data-url.prompt'), dataUrl(20 * 1024 * 1024));
    try {
      const count = await cli(dir, ['count', '--json', 'huge.prompt', 'data-url.prompt']);
      assertHandled(count, 'count of 50 MB and 20 MB');
      const rows = JSON.parse(count.stdout) as Array<{ exact: boolean; contentTokens: number; notes: string[] }>;
      for (const row of rows) {
        assert.equal(row.exact, false);
        assert.match(row.notes.join(' '), /over --max-file-bytes .*estimated from 16 samples/);
      }
      // Prose is about 4.5 characters per token and base64 about 1.5: the estimates must tell them apart.
      const [prose, base64] = rows.map((r) => r.contentTokens) as [number, number];
      assert.ok(prose > (50 * 1024 * 1024) / 6 && prose < (50 * 1024 * 1024) / 3, `prose: ${prose}`);
      assert.ok(base64 > (20 * 1024 * 1024) / 2 && base64 < (20 * 1024 * 1024) / 1.1, `base64: ${base64}`);

      const estimate = await cli(dir, ['estimate', 'data-url.prompt', '--provider', 'openai', '--model', 'gpt-4o']);
      assert.equal(estimate.code, 2);
      assert.match(
        estimate.stderr,
        new RegExp(
          `^prompt-lens estimate: data-url\\.prompt: 20\\.0 MiB is over --max-file-bytes ${DEFAULT_MAX_FILE_BYTES} .*\\n$`,
        ),
      );
      const report = await cli(dir, ['report', '.', '--include', '*.prompt']);
      assertHandled(report, 'report with large files');
      assert.match(report.stderr, /huge\.prompt: 50\.0 MiB is over --max-file-bytes .*; skipped/);
    } finally {
      rmSync(join(dir, 'huge.prompt'));
      rmSync(join(dir, 'data-url.prompt'));
    }
  });

  it('a 5 MB single line under a raised --max-file-bytes is tokenised exactly within the bound', async () => {
    writeFileSync(join(dir, 'line.prompt'), 'lorem ipsum dolor sit amet, '.repeat(190_000));
    try {
      const run = await cli(dir, ['count', '--json', '--max-file-bytes', '6000000', 'line.prompt']);
      assertHandled(run, 'count of a 5 MB line');
      const [row] = JSON.parse(run.stdout) as Array<{ exact: boolean; contentTokens: number }>;
      assert.equal(row?.exact, true);
      assert.ok((row?.contentTokens ?? 0) > 1_000_000);
    } finally {
      rmSync(join(dir, 'line.prompt'));
    }
  });

  it('a device or other non-regular file is refused in one line instead of read without end', async () => {
    for (const args of [
      ['count', '/dev/zero'],
      ['estimate', '/dev/zero', '--provider', 'openai', '--model', 'gpt-4o'],
      ['estimate', '--tokens', '5', '--provider', 'openai', '--model', 'gpt-4o', '--table', '/dev/zero'],
    ]) {
      const run = await cli(dir, args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, /^prompt-lens[^\n]*cannot read (table )?\/dev\/zero: not a regular file\n$/);
    }
  });

  it('control characters and bidi overrides from a file never reach the terminal raw', async () => {
    writeFileSync(join(dir, 'escape.prompt'), 'Hi {{name\u001b[2J\u001b]0;pwned\u0007\r\u202e}} there');
    try {
      const run = await cli(dir, ['count', 'escape.prompt']);
      assertHandled(run, 'count escape.prompt');
      assert.match(run.stdout, /unfilled: /);
      assert.doesNotMatch(run.stdout, /[\u001b\u0007\r\u202e]/);
    } finally {
      rmSync(join(dir, 'escape.prompt'));
    }
  });
});
