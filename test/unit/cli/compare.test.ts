import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { memoryIo } from '../helpers/memoryIo';

const PROMPT =
  'system:\nYou review pull requests for a payments service.\n\nuser:\nReview this diff for concurrency bugs.\n';

async function run(args: string[], files: Record<string, string> = { 'review.prompt': PROMPT }) {
  const io = memoryIo(files);
  const code = await runCli(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

interface JsonRow {
  target: string;
  kind: string;
  ttftMs: { p50: number; p99: number };
  tpotMs: number;
  e2eMs: number;
  meetsSlo: boolean;
  costPer1kCallsUsd: number;
  costPerMOutputUsd: number;
}

describe('prompt-lens compare', () => {
  it('prints JSON rows with the documented fields, meeting rows first by cost', async () => {
    const r = await run(['compare', 'review.prompt', '--model', 'llama-3.1-8b', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as {
      profile: { name: string; ttftMs: number };
      model: string;
      rows: JsonRow[];
      assumptions: string[];
    };
    assert.deepEqual([out.profile.name, out.profile.ttftMs, out.model], ['interactive', 500, 'llama-3.1-8b']);
    for (const key of ['target', 'ttftMs', 'tpotMs', 'e2eMs', 'meetsSlo', 'costPer1kCallsUsd'])
      assert.ok(
        out.rows.every((row) => key in row),
        key,
      );
    const firstFail = out.rows.findIndex((row) => !row.meetsSlo);
    const meeting = out.rows.slice(0, firstFail < 0 ? undefined : firstFail);
    assert.ok(meeting.length > 0 && meeting.every((row) => row.meetsSlo));
    for (let i = 1; i < meeting.length; i++)
      assert.ok((meeting[i - 1]?.costPer1kCallsUsd ?? 0) <= (meeting[i]?.costPer1kCallsUsd ?? 0));
    assert.ok(
      out.rows.some((row) => row.target.startsWith('llama-3.1-8b@')) && out.rows.some((row) => row.kind === 'provider'),
    );
    assert.ok(out.assumptions.some((a) => a.startsWith('Self-hosted cost:')));
  });

  it('applies --profile batch, --slo, --concurrency and --output-tokens', async () => {
    const batch = JSON.parse((await run(['compare', 'review.prompt', '--profile', 'batch', '--json'])).stdout) as {
      profile: Record<string, unknown>;
      rows: JsonRow[];
    };
    assert.deepEqual(
      [batch.profile.name, batch.profile.ttftMs, batch.profile.rankBy],
      ['batch', null, 'costPerMOutput'],
    );
    for (let i = 1; i < batch.rows.length; i++)
      assert.ok((batch.rows[i - 1]?.costPerMOutputUsd ?? 0) <= (batch.rows[i]?.costPerMOutputUsd ?? 0));
    const strict = JSON.parse(
      (
        await run([
          'compare',
          'review.prompt',
          '--slo',
          'ttft=1,tpot=none',
          '--concurrency',
          '3',
          '--output-tokens',
          '50',
          '--json',
        ])
      ).stdout,
    ) as { profile: Record<string, unknown>; rows: JsonRow[] };
    assert.deepEqual(strict.profile, {
      name: 'custom',
      ttftMs: 1,
      tpotMs: null,
      concurrency: 3,
      outputTokens: 50,
      rankBy: 'costPer1kCalls',
    });
    assert.ok(strict.rows.every((row) => !row.meetsSlo));
  });

  it('prints a readable table with notes, assumptions and a cold column when a prefix is cached', async () => {
    const r = await run(['compare', 'review.prompt', '--model', 'llama-3.1-70b', '--cached', '10']);
    assert.equal(r.code, 0, r.stderr);
    const [title, scenario, , header] = r.stdout.split('\n');
    assert.match(title ?? '', /^review\.prompt: \d+ of \d+ targets meet the interactive SLO$/);
    // What every figure assumes, said once above the table.
    assert.match(
      scenario ?? '',
      /^Figures per call: (cold|warm \(up to 10 tokens cached\) where the target caches, else cold), 8 concurrent requests, 256 output tokens\.$/,
    );
    assert.match(
      header ?? '',
      /^Target\s+TTFT p50\s+TTFT p99\s+cold p99\s+TPOT\s+E2E\s+\$\/1k calls\s+\$\/M output\s+tok\/s\s+SLO$/,
    );
    assert.match(r.stdout, /✗ TTFT p99 \d+ ms > 500 ms/);
    assert.match(r.stdout, /\nAssumptions:\n {2}Profile interactive/);
    const plain = (await run(['compare', 'review.prompt'])).stdout.split('\n');
    assert.equal(plain[1], 'Figures per call: cold, 8 concurrent requests, 256 output tokens.');
    assert.doesNotMatch(plain[3] ?? '', /cold p99/);
    assert.match(plain[3] ?? '', /^Target\s+TTFT p50/);
  });

  it('unknown ids and bad flags exit 2 with one line naming the problem', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['compare', 'review.prompt', '--model', 'lama-3.1-70b'],
        /^prompt-lens compare: unknown model 'lama-3.1-70b'; did you mean llama-3.1-70b, .*\?\n$/,
      ],
      [
        ['compare', 'review.prompt', '--profile', 'offline'],
        /^prompt-lens compare: --profile: must be one of interactive, batch\n$/,
      ],
      [
        ['compare', 'review.prompt', '--slo', 'ttft=fast'],
        /^prompt-lens compare: --slo: 'ttft=fast' is not ttft=MS or tpot=MS/,
      ],
      [['compare', 'review.prompt', '--slo', 'e2e=5'], /--slo: 'e2e=5'/],
      [['compare', 'review.prompt', '--concurrency', '0'], /--concurrency: must be at least 1/],
      [['compare', 'review.prompt', '--output-tokens', '2.5'], /--output-tokens: must be a whole number/],
      [['compare', 'review.prompt', '--cached=-1'], /--cached: must be at least 0/],
      [['compare'], /give one prompt FILE/],
      [['compare', 'missing.prompt'], /cannot read missing\.prompt: no such file/],
      [['compare', 'review.prompt', '--bogus'], /bogus/],
    ];
    for (const [args, pattern] of cases) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, pattern, args.join(' '));
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.equal(r.stdout, '');
    }
  });

  it('takes the model and profile from the prompt’s front matter; flags override it', async () => {
    const file =
      '---\nmodel: llama-3.1-8b\nprofile:\n  profile: batch\n  concurrency: 16\n---\nSummarise the report.\n';
    const fromFile = JSON.parse((await run(['compare', 'r.prompt.md', '--json'], { 'r.prompt.md': file })).stdout) as {
      profile: Record<string, unknown>;
      model: string;
    };
    assert.deepEqual(
      [fromFile.profile.name, fromFile.profile.concurrency, fromFile.model],
      ['batch', 16, 'llama-3.1-8b'],
    );
    const flagged = JSON.parse(
      (await run(['compare', 'r.prompt.md', '--profile', 'interactive', '--json'], { 'r.prompt.md': file })).stdout,
    ) as { profile: Record<string, unknown> };
    assert.deepEqual([flagged.profile.name, flagged.profile.concurrency], ['interactive', 16]);
    const bad = await run(['compare', 'r.prompt.md'], { 'r.prompt.md': '---\nprofile: offline\n---\nHi\n' });
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      'prompt-lens compare: r.prompt.md: front matter profile.profile: must be one of interactive, batch\n',
    );
  });

  it('rows from --table join the comparison', async () => {
    const table = JSON.stringify({
      hardware: [
        {
          id: 'my-gpu',
          source: 'test',
          date: '2026-11-30',
          vendor: 'nvidia',
          family: 'nvidia-hopper',
          flops: { bf16: 1e15, fp8: 2e15 },
          memoryBytes: 96e9,
          memoryBandwidth: 4e12,
          interconnectBandwidth: 4.5e11,
          usdPerHour: { value: 2, source: 'test', date: '2026-11-30' },
        },
      ],
    });
    const r = await run(['compare', 'review.prompt', '--model', 'llama-3.1-8b', '--table', 'rows.json', '--json'], {
      'review.prompt': PROMPT,
      'rows.json': table,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(
      (JSON.parse(r.stdout) as { rows: JsonRow[] }).rows.some((row) => row.target === 'llama-3.1-8b@my-gpu:bf16+vllm'),
    );
  });
});
