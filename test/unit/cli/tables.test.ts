import assert from 'node:assert/strict';
import hardwareFile from '../../../data/hardware.json';
import { runCli } from '../../../src/cli/main';
import { memoryIo } from '../helpers/memoryIo';

const h100 = hardwareFile.hardware.find((h) => h.id === 'h100-sxm')!;

describe('--table files with hostile rows', () => {
  it('names the field of each bad row on its own line, skips only those rows, and the good row still works', async () => {
    // Written by hand: JSON.stringify cannot produce NaN, and JSON.parse keeps "__proto__" as an own key.
    const good = JSON.stringify({ ...h100, id: 'good-gpu' });
    const text = `{ "hardware": [
      42, null, "h100",
      ${JSON.stringify({ ...h100, id: undefined })},
      ${JSON.stringify({ ...h100, id: 'zero-gpu', flops: { bf16: 0 } })},
      ${JSON.stringify({ ...h100, id: 'neg-gpu', memoryBandwidth: -3e12 })},
      ${JSON.stringify({ ...h100, id: 'string-gpu', memoryBytes: '80GB' })},
      ${JSON.stringify({ ...h100, id: 'typo-gpu', flops: { ...h100.flops, FP8: 2e15 } })},
      { "__proto__": { "polluted": true }, "id": "proto-gpu" },
      ${good}
    ], "models": [{ "id": "tiny" }], "providers": [{ "id": "acme/x", "inputUsdPerMTok": "free" }] }`;
    const io = memoryIo({ '/t.json': text });
    const code = await runCli(
      [
        'estimate',
        '--tokens',
        '100',
        '--model',
        'llama-3.1-8b',
        '--hardware',
        'good-gpu',
        '--table',
        '/t.json',
        '--json',
      ],
      io,
    );
    assert.equal(code, 0, io.stderr);
    assert.ok((JSON.parse(io.stdout) as { ttftMs: { p50: number } }).ttftMs.p50 > 0);
    const lines = io.stderr.trim().split('\n');
    for (const [path, id] of [
      ['hardware[0]', ''],
      ['hardware[1]', ''],
      ['hardware[2]', ''],
      ['hardware[3].id', ''],
      ['hardware[4].flops.bf16', 'zero-gpu'],
      ['hardware[5].memoryBandwidth', 'neg-gpu'],
      ['hardware[6].memoryBytes', 'string-gpu'],
      ['hardware[8]', 'proto-gpu'],
      ['models[0]', 'tiny'],
      ['providers[0]', 'acme/x'],
    ]) {
      const escaped = (path as string).replace(/[[\].]/g, '\\$&');
      assert.ok(
        lines.some((l) =>
          new RegExp(`^prompt-lens: /t\\.json: ${escaped}[^ ]* ${id ? `\\(${id}\\)` : ''}.*row skipped$`).test(l),
        ),
        `no line for ${path}:\n${io.stderr}`,
      );
    }
    // A misspelt key is an error naming the closest valid key, not a silent fallback to another rate.
    assert.ok(
      lines.some((l) =>
        /hardware\[7\]\.flops \(typo-gpu\): unknown key 'FP8'; did you mean 'fp8'\?; row skipped$/.test(l),
      ),
      io.stderr,
    );
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('a target naming a skipped row says why the row was skipped, not "unknown … did you mean"', async () => {
    const io = memoryIo({
      '/t.json': JSON.stringify({ hardware: [{ ...h100, id: 'lab-gpu', flops: { bf16: 1e15, FP8: 2e15 } }] }),
    });
    const code = await runCli(
      ['estimate', '--tokens', '100', '--model', 'llama-3.1-8b', '--hardware', 'lab-gpu', '--table', '/t.json'],
      io,
    );
    assert.equal(code, 2);
    const last = io.stderr.trim().split('\n').at(-1) ?? '';
    assert.match(
      last,
      /^prompt-lens estimate: hardware 'lab-gpu' was skipped: \/t\.json: hardware\[0\]\.flops: unknown key 'FP8'; did you mean 'fp8'\?$/,
    );
  });

  it('an unknown id in a flag is one line naming it, exit 2', async () => {
    const io = memoryIo({});
    assert.equal(
      await runCli(['estimate', '--tokens', '100', '--model', 'llama-3.1-8b', '--hardware', 'no-such-gpu'], io),
      2,
    );
    assert.match(io.stderr, /^prompt-lens estimate: .*no-such-gpu.*\n$/);
  });
});
