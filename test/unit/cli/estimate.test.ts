import assert from 'node:assert/strict';
import hardwareFile from '../../../data/hardware.json';
import { runCli } from '../../../src/cli/main';
import { memoryIo } from '../helpers/memoryIo';

async function run(args: string[], files: Record<string, string> = {}) {
  const io = memoryIo(files);
  const code = await runCli(args, io);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

describe('prompt-lens estimate', () => {
  it('prints one JSON object with the documented fields', async () => {
    const r = await run([
      'estimate',
      '--tokens',
      '5000',
      '--cached',
      '4000',
      '--model',
      'llama-3.1-70b',
      '--hardware',
      'h100-sxm',
      '--gpus',
      '4',
      '--precision',
      'fp8',
      '--output-tokens',
      '100',
      '--concurrency',
      '2',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    for (const key of [
      'inputTokens',
      'cachedTokens',
      'prefillFlops',
      'ttftMs',
      'tpotMs',
      'e2eMs',
      'costUsd',
      'bound',
      'coldTtftMs',
      'costPer1kCallsUsd',
      'kvCache',
    ])
      assert.ok(key in out, key);
    assert.equal(out.target, 'llama-3.1-70b@4xh100-sxm:fp8+vllm');
    const assumptions = out.assumptions as {
      engine: { id: string; choice: string };
      scope: string;
      parallel: object;
      range: string;
    };
    assert.deepEqual(
      [assumptions.engine.id, assumptions.engine.choice, assumptions.scope],
      ['vllm', 'default', 'http'],
    );
    assert.deepEqual(assumptions.parallel, { tp: 4, pp: 1, assumed: true });
    assert.match(assumptions.range, /percentile of measured\/predicted/);
    assert.equal(out.inputTokens, 5000);
    assert.equal(out.cachedTokens, 4000);
    assert.ok(['compute', 'memory'].includes(out.bound as string));
    assert.ok(typeof out.prefillFlops === 'number' && (out.prefillFlops as number) > 0);
    const ttft = out.ttftMs as { p50: number; low: number; high: number };
    assert.ok(ttft.low <= ttft.p50 && ttft.p50 <= ttft.high);
  });

  it('counts a prompt FILE and marks the count approximate when the model tokenizer is missing', async () => {
    const text = 'Summarise the following report in three bullet points.';
    const r = await run(['estimate', 'a.prompt', '--provider', 'anthropic', '--model', 'claude-haiku-4.5', '--json'], {
      'a.prompt': text,
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { inputTokens: number; tokensExact: boolean; notes: string[] };
    assert.ok(out.inputTokens > 5 && out.inputTokens < 20);
    assert.equal(out.tokensExact, false);
    const gpt = JSON.parse(
      (await run(['estimate', 'a.prompt', '--provider', 'openai', '--model', 'gpt-4o', '--json'], { 'a.prompt': text }))
        .stdout,
    ) as { tokensExact: boolean; tokenizer: string };
    assert.deepEqual([gpt.tokensExact, gpt.tokenizer], [true, 'o200k_base']);
  });

  it('prints a readable report with warm and cold TTFT', async () => {
    const r = await run([
      'estimate',
      '--tokens',
      '3000',
      '--cached',
      '2048',
      '--provider',
      'openai',
      '--model',
      'gpt-4o',
    ]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /TTFT:\s+warm .* cold /);
    assert.match(r.stdout, /per 1,000 calls/);
  });

  it('unknown ids exit 2 with the closest valid ids on one line', async () => {
    const r = await run(['estimate', '--tokens', '10', '--model', 'llama-3.1-70b', '--hardware', 'h100-sxn']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^prompt-lens estimate: unknown hardware 'h100-sxn'; did you mean h100-sxm.*\?\n$/);
    const p = await run(['estimate', '--tokens', '10', '--provider', 'opnai', '--model', 'gpt-4o']);
    assert.equal(p.code, 2);
    assert.match(p.stderr, /did you mean openai\/gpt-4o/);
  });

  it('bad usage exits 2: FILE and --tokens together, neither, bad numbers, mixed target flags', async () => {
    for (const args of [
      ['estimate', 'a.prompt', '--tokens', '5', '--provider', 'openai', '--model', 'gpt-4o'],
      ['estimate', '--provider', 'openai', '--model', 'gpt-4o'],
      ['estimate', '--tokens', '-5', '--provider', 'openai', '--model', 'gpt-4o'],
      ['estimate', '--tokens', '5', '--cached', '9', '--provider', 'openai', '--model', 'gpt-4o'],
      ['estimate', '--tokens', '5', '--provider', 'openai', '--model', 'gpt-4o', '--gpus', '2'],
      ['estimate', '--tokens', '5', '--model', 'llama-3.1-8b'],
      ['estimate', '--tokens', '5', '--model', 'llama-3.1-8b', '--hardware', 'l4', '--concurrency', '0'],
    ]) {
      const r = await run(args, { 'a.prompt': 'hi' });
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
    }
  });

  it('prints the engine release range it assumed: current by default, an older one from --engine-version or ~VERSION', async () => {
    const base = 'estimate --tokens 4000 --target llama-3.1-8b@rtx-4090:int4+llamacpp --scope engine'.split(' ');
    const current = await run(base);
    assert.equal(current.code, 0, current.stderr);
    assert.match(
      current.stdout,
      /\nEngine release: llama\.cpp current \(b2000-b7000\) \(the default; --engine-version or \+ENGINE~VERSION to change\)\n/,
    );
    const old = await run([...base, '--engine-version', '2024-05']);
    assert.equal(old.code, 0, old.stderr);
    assert.match(old.stdout, /^llama-3\.1-8b@rtx-4090:int4\+llamacpp~2024-05: /);
    assert.match(old.stdout, /\nAssumes: llama\.cpp ~2024-05 · engine only; /);
    assert.match(
      old.stdout,
      /\nEngine release: llama\.cpp builds before 2024-06-24 \(PR #8075\).* \(version 2024-05\); prefill ×0\.751\n/,
    );
    assert.match(
      old.stdout,
      /\nNote: +engine release: .*prefill ×0\.751 of the current release's: RTX 4090.*pull\/7676/,
    );
    type Json = { ttftMs: { p50: number }; assumptions: { release: { range: string; prefillFactor: number } } };
    const json = async (extra: string[]) => JSON.parse((await run([...base, ...extra, '--json'])).stdout) as Json;
    const [now, before] = [await json([]), await json(['--engine-version', 'cublas-prefill'])];
    assert.deepEqual(
      [before.assumptions.release.range, before.assumptions.release.prefillFactor],
      ['cublas-prefill', 0.751],
    );
    assert.equal(now.assumptions.release.range, 'current');
    assert.ok(before.ttftMs.p50 > now.ttftMs.p50, `${before.ttftMs.p50} vs ${now.ttftMs.p50}`);
    const bad = await run([...base, '--engine-version', 'b3000']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /unknown llama\.cpp version 'b3000'; give a build date/);
    const malformed = await run([...base, '--engine-version', 'May 2024']);
    assert.notEqual(malformed.code, 0);
    assert.match(malformed.stderr, /--engine-version.*is not an engine version/);
  });

  it('names the engine, scope and split it assumed, and says how the range was derived', async () => {
    const r = await run(
      'estimate --tokens 4000 --model llama-3.1-405b --hardware h100-sxm --gpus 16 --precision fp8'.split(' '),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^llama-3\.1-405b@16xh100-sxm:fp8\+vllm: /);
    assert.match(
      r.stdout,
      /\nAssumes: vLLM · HTTP · TP 8 × PP 2; engine vLLM .* \(default vllm; --engine to change\)\n/,
    );
    assert.match(
      r.stdout,
      /\nRange: ×[\d.]+–×[\d.]+: 5th–95th percentile of measured\/predicted over all \d+ leave-one-source-out residuals/,
    );
    assert.match(r.stdout, /TP 8 × PP 2 assumed \(TP within a node of 8, PP across nodes/);
  });

  it('--engine, --scope, --tp/--pp and --target change what is estimated, and say so', async () => {
    const json = async (args: string[]) => {
      const r = await run(['estimate', '--tokens', '2000', '--output-tokens', '1', ...args, '--json']);
      assert.equal(r.code, 0, r.stderr);
      return JSON.parse(r.stdout) as {
        target: string;
        ttftMs: { p50: number };
        assumptions: { scope: string; parallel: { tp: number; pp: number; assumed: boolean } };
      };
    };
    const base = ['--model', 'llama-3.1-70b', '--hardware', 'h100-sxm', '--gpus', '4'];
    const vllm = await json(base);
    const trt = await json([...base, '--engine', 'trtllm']);
    assert.equal(trt.target, 'llama-3.1-70b@4xh100-sxm:bf16+trtllm');
    assert.notEqual(trt.ttftMs.p50, vllm.ttftMs.p50);
    const engineOnly = await json([...base, '--scope', 'engine']);
    assert.equal(engineOnly.assumptions.scope, 'engine');
    assert.ok(engineOnly.ttftMs.p50 < vllm.ttftMs.p50);
    const split = await json([...base, '--tp', '2', '--pp', '2']);
    assert.equal(split.target, 'llama-3.1-70b@4xh100-sxm:bf16:tp2pp2+vllm');
    assert.deepEqual(split.assumptions.parallel, { tp: 2, pp: 2, assumed: false });
    assert.ok(split.ttftMs.p50 > vllm.ttftMs.p50, 'a request crosses two stages of half the devices each');
    const byId = await json(['--target', 'llama-3.1-70b@4xh100-sxm:bf16:tp2pp2+vllm']);
    assert.equal(byId.ttftMs.p50, split.ttftMs.p50);
  });

  it('sizes the generic CPU row with --cpu-cores, --cpu-gflops and --cpu-bandwidth', async () => {
    const ttft = async (extra: string[]) => {
      const r = await run([
        ...'estimate --tokens 1000 --model llama-3.1-8b --hardware cpu --json'.split(' '),
        ...extra,
      ]);
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { ttftMs: { p50: number } }).ttftMs.p50;
    };
    assert.ok((await ttft(['--cpu-cores', '128'])) < (await ttft(['--cpu-cores', '16'])));
    const gpu = await run('estimate --tokens 10 --model llama-3.1-8b --hardware h100-sxm --cpu-cores 8'.split(' '));
    assert.equal(gpu.code, 2);
    assert.match(gpu.stderr, /not a CPU row/);
  });

  it('refuses an engine on hardware it does not run on, and a split that does not match the count', async () => {
    const vllmOnMac = await run('estimate --tokens 10 --target llama-3.1-8b@m3-max+vllm'.split(' '));
    assert.equal(vllmOnMac.code, 2);
    assert.match(
      vllmOnMac.stderr,
      /vLLM \(vllm\) has no efficiency row for apple hardware \(m3-max\); engines for it: llamacpp, ollama, mlx/,
    );
    const mismatch = await run(
      'estimate --tokens 10 --model llama-3.1-8b --hardware h100-sxm --gpus 4 --tp 3'.split(' '),
    );
    assert.equal(mismatch.code, 2);
    const badScope = await run('estimate --tokens 10 --model llama-3.1-8b --hardware h100-sxm --scope tcp'.split(' '));
    assert.equal(badScope.code, 2);
    assert.match(badScope.stderr, /--scope/);
  });

  it('--table adds and overrides rows; invalid rows are reported and skipped', async () => {
    const h100 = hardwareFile.hardware.find((h) => h.id === 'h100-sxm')!;
    const table = JSON.stringify({
      hardware: [
        { ...h100, id: 'my-gpu', memoryBandwidth: h100.memoryBandwidth * 2 },
        { ...h100, id: 'broken', flops: { bf16: -1 } },
      ],
    });
    const base = ['estimate', '--tokens', '100', '--model', 'llama-3.1-8b', '--output-tokens', '10', '--json'];
    const mine = await run([...base, '--hardware', 'my-gpu', '--table', 't.json'], { 't.json': table });
    assert.equal(mine.code, 0);
    assert.match(mine.stderr, /t\.json: hardware\[1\]\.flops\.bf16 \(broken\): .*row skipped/);
    const stock = await run([...base, '--hardware', 'h100-sxm']);
    const tpot = (s: string) => (JSON.parse(s) as { tpotMs: { p50: number } }).tpotMs.p50;
    assert.ok(tpot(mine.stdout) < tpot(stock.stdout));
    const unreadable = await run([...base, '--hardware', 'h100-sxm', '--table', 'missing.json']);
    assert.equal(unreadable.code, 2);
    const notJson = await run([...base, '--hardware', 'h100-sxm', '--table', 'bad.json'], { 'bad.json': '{' });
    assert.equal(notJson.code, 2);
    assert.match(notJson.stderr, /not valid JSON/);
  });
});

describe('prompt-lens targets', () => {
  it('lists models, hardware and providers as JSON', async () => {
    const r = await run(['targets', '--json']);
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout) as {
      models: { id: string }[];
      hardware: { id: string }[];
      providers: { id: string }[];
    };
    assert.ok(out.models.some((m) => m.id === 'deepseek-v3'));
    assert.ok(out.hardware.some((h) => h.id === 'mi300x'));
    assert.ok(out.providers.some((p) => p.id === 'anthropic/claude-sonnet-4.5'));
  });

  it('prints a readable list by default', async () => {
    const r = await run(['targets']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /MODEL@\[Nx\]HARDWARE\[:PRECISION\]/);
    assert.match(r.stdout, /h100-sxm/);
  });
});
