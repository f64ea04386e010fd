import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult } from '../../../src/core/bench/result';
import type { SloVerdict } from '../../../src/core/bench/stats';
import { cli, ensureBuilt, spawnCli } from '../helpers/builtCli';
import { chatChunk, scriptedServer, sse, writeSlowly, type ScriptedServer } from '../helpers/scriptedServer';

/** Issue 16 item 3: a benchmark cut short (time limit, Ctrl-C, SIGTERM) never passes a gate. */
describe('prompt-lens bench: a partial run never passes', function () {
  this.timeout(120_000);
  let dir: string;
  let server: ScriptedServer;

  before(async () => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'prompt-lens-partial-'));
    writeFileSync(join(dir, 'p.prompt'), 'Summarise Hamlet in one line.');
    // Fast enough for any TTFT SLO: every level that runs passes.
    server = await scriptedServer((_req, res) =>
      writeSlowly(res, [
        [5, sse(chatChunk('Hi'))],
        [5, sse(chatChunk(' there'), '[DONE]')],
      ]),
    );
  });

  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const args = (extra: string[]) => [
    'bench',
    'p.prompt',
    '--base-url',
    server.url,
    '--model',
    'm',
    '--warmup',
    '0',
    '--slo',
    'ttft=5000,tpot=5000',
    ...extra,
  ];

  it('--time-limit-s: the levels that ran pass, yet the verdict fails and the exit code is 3', async () => {
    const run = await cli(
      dir,
      args(['--concurrency', '1,16', '--requests', '100000', '--time-limit-s', '1', '--json']),
    );
    assert.equal(run.code, 3, run.stderr);
    const result = JSON.parse(run.stdout) as BenchResult & { verdict: SloVerdict };
    assert.equal(result.partialReason, 'time-limit');
    assert.ok(result.modes[0]!.levels.length >= 1);
    assert.equal(result.verdict.pass, false);
    assert.match(result.verdict.failures.join('\n'), /the run is partial \(stopped by its time limit\)/);

    const text = await cli(dir, args(['--concurrency', '1,16', '--requests', '100000', '--time-limit-s', '1']));
    assert.equal(text.code, 3);
    assert.match(text.stdout, /PARTIAL result/);
    assert.match(text.stdout, /SLO verdict: FAIL\n {2}the run is partial/);
  });

  it('SIGTERM stops the run like Ctrl-C: the partial table is printed, exit code 3', async () => {
    const child = spawnCli(dir, args(['--concurrency', '1', '--requests', '100000']));
    let stdout = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    const code = await new Promise<number | null>((resolve) => {
      child.stderr?.setEncoding('utf8').on('data', (d: string) => {
        stderr += d;
        // A finished request has been counted: stop the run there.
        if (/ [1-9]\d*\/100000 done/.test(stderr)) child.kill('SIGTERM');
      });
      child.on('close', (c) => resolve(c));
    });
    assert.equal(code, 3, stderr);
    assert.match(stdout, /^Benchmark of p\.prompt on model /m);
    assert.match(stdout, /PARTIAL result: the run was cancelled/);
    assert.match(stdout, /SLO verdict: FAIL/);
  });
});
