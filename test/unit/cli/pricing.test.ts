import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { pricingFlags } from '../../../src/cli/commands/pricingFlags';
import { memoryIo } from '../helpers/memoryIo';

async function run(args: string[], files: Record<string, string> = {}) {
  const io = memoryIo(files);
  const code = await runCli(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

const usd = (tokens: number, perM: number) => (tokens * perM) / 1e6;

describe('CLI pricing: context windows, retired models, cache TTL, time of day', () => {
  it('estimate says a 200,001-token prompt exceeds claude-sonnet-4.5’s 200k window (and that the model is retired)', async () => {
    const r = await run(['estimate', '--provider', 'anthropic', '--model', 'claude-sonnet-4.5', '--tokens', '200001']);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /Error: prompt of 200,001 tokens exceeds anthropic\/claude-sonnet-4\.5's 200,000-token context window by 1/,
    );
    assert.match(
      r.stdout,
      /Error: anthropic\/claude-sonnet-4\.5 was retired on 2026-11-30: requests to it fail; use anthropic\/claude-sonnet-5\.5 instead/,
    );
    const fits = await run([
      'estimate',
      '--provider',
      'anthropic',
      '--model',
      'claude-sonnet-4.6',
      '--tokens',
      '200001',
    ]);
    assert.equal(fits.code, 0, fits.stderr);
    assert.doesNotMatch(fits.stdout, /Error:/);
  });

  it('estimate --json carries the errors and the pricing basis', async () => {
    const r = await run([
      'estimate',
      '--provider',
      'anthropic',
      '--model',
      'claude-3.5-haiku',
      '--tokens',
      '10',
      '--json',
    ]);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { errors: string[]; pricing: string[] };
    assert.equal(out.errors.length, 1);
    assert.match(out.errors[0] ?? '', /retired on 2026-02-19.*use anthropic\/claude-haiku-4\.5 instead/);
    assert.match(out.pricing[0] ?? '', /^cache TTL 5m: writes at 1\.25× input/);
  });

  it('--cache-ttl 1h prices the first (write) call at 2× input and shows the TTL', async () => {
    const args = [
      'estimate',
      '--provider',
      'anthropic',
      '--model',
      'claude-sonnet-4.6',
      '--tokens',
      '10000',
      '--cached',
      '8000',
    ];
    const json = async (extra: string[]) => {
      const r = await run([...args, ...extra, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as {
        cost: { cold: { cacheWriteUsd: number; cacheWriteTokens: number } };
        pricing: string[];
      };
    };
    const fiveMin = await json([]);
    const oneHour = await json(['--cache-ttl', '1h']);
    assert.equal(oneHour.cost.cold.cacheWriteTokens, 8000);
    assert.ok(Math.abs(oneHour.cost.cold.cacheWriteUsd - usd(8000, 6)) < 1e-12); // 2 × $3
    assert.ok(Math.abs(fiveMin.cost.cold.cacheWriteUsd - usd(8000, 3.75)) < 1e-12); // 1.25 × $3
    assert.match(oneHour.pricing[0] ?? '', /^cache TTL 1h: writes at 2× input/);
    const human = await run([...args, '--cache-ttl', '1h']);
    assert.match(human.stdout, /cache write \(1h TTL\): 8000 tokens/);
    assert.match(human.stdout, /cache TTL 1h: writes at 2× input/);
    const bad = await run([...args, '--cache-ttl', '2h']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--cache-ttl: must be one of 5m, 1h/);
  });

  it('--hour picks DeepSeek’s peak or off-peak rates and the estimate says which', async () => {
    const args = [
      'estimate',
      '--provider',
      'deepseek',
      '--model',
      'deepseek-flash',
      '--tokens',
      '1000000',
      '--output-tokens',
      '0',
      '--json',
    ];
    const at = async (hour: string) => {
      const r = await run([...args, '--hour', hour]);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as { costUsd: number; pricing: string[] };
    };
    const now = new Date();
    const weekday = now.getUTCDay() !== 0 && now.getUTCDay() !== 6;
    const nine = await at('9');
    const noon = await at('12');
    assert.ok(Math.abs(noon.costUsd - 0.15) < 1e-12);
    assert.ok(Math.abs(nine.costUsd - (weekday ? 0.3 : 0.15)) < 1e-12);
    assert.match(nine.pricing.join('\n'), weekday ? /peak rates: \w{3} 09:00 UTC is inside/ : /off-peak rates/);
    assert.match(
      noon.pricing.join('\n'),
      /off-peak rates: \w{3} 12:00 UTC is outside the peak hours 01:00–04:00, 06:00–10:00 UTC \(Mon–Fri\)/,
    );
    const bad = await run([...args, '--hour', '24']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--hour: must be at most 23/);
  });

  it('--hour is today at H:00 UTC; without it, now', () => {
    const now = new Date('2026-12-01T17:42:10Z');
    assert.equal(pricingFlags({ hour: '3' }, now).at.toISOString(), '2026-12-01T03:00:00.000Z');
    assert.equal(pricingFlags({}, now).at.toISOString(), now.toISOString());
    assert.equal(pricingFlags({}, now).cacheTtl, '5m');
  });

  it('compare leaves retired models out and states the TTL and pricing time', async () => {
    const r = await run(['compare', 'p.prompt', '--hour', '12', '--cache-ttl', '1h', '--json'], {
      'p.prompt': 'Hello there.',
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { rows: { target: string }[]; assumptions: string[] };
    const targets = out.rows.map((row) => row.target);
    assert.ok(targets.includes('anthropic/claude-sonnet-4.6'));
    assert.ok(!targets.includes('anthropic/claude-3.5-haiku'));
    assert.ok(!targets.includes('deepseek/deepseek-chat'));
    assert.match(out.assumptions.join('\n'), /cache writes ask for the 1h TTL.*at \d{4}-\d{2}-\d{2}T12:00Z/);
  });

  it('report refuses a retired target and names the successor', async () => {
    const r = await run(['report', '.', '--target', 'anthropic/claude-3.5-haiku'], { 'a.prompt': 'Hi' });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--target: anthropic\/claude-3\.5-haiku was retired on 2026-02-19: requests to it fail; use anthropic\/claude-haiku-4\.5 instead/,
    );
  });
});
