// The CLI ends of the interop: `bench --export KIND DIR` writes the run and the tool's files and
// prints its commands; `import KIND FILE…` prints an imported result with the same --slo verdict.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import type { BenchResult } from '../../../src/core/bench/result';
import { parseRunFile, RUN_FILE } from '../../../src/core/interop/run';
import { memoryIo } from '../helpers/memoryIo';

const FIXTURES = join(__dirname, '../../fixtures/interop');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const PROMPT = { 'p.prompt': 'system:\nYou are terse.\nuser:\nWhere is my parcel?\n' };
const BENCH = ['bench', 'p.prompt', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'm', '--requests', '3'];

describe('prompt-lens bench --export and import', () => {
  it('writes the run description and a GuideLLM data file per level, without running or holding a key', async () => {
    const io = memoryIo({ ...PROMPT });
    io.env.PROMPT_LENS_API_KEY = 'sk-never-written-0123456789';
    const code = await runCli([...BENCH, '--concurrency', '1,2', '--cache', 'both', '--export', 'guidellm', 'out'], io);
    assert.equal(code, 0, io.stderr);
    const files = await io.listFiles('out', () => undefined);
    assert.deepEqual(files.sort(), [
      'guidellm-cold-c1.jsonl',
      'guidellm-cold-c2.jsonl',
      'guidellm-warm-c1.jsonl',
      'guidellm-warm-c2.jsonl',
      RUN_FILE,
    ]);
    const run = parseRunFile(await io.readFile(`out/${RUN_FILE}`), RUN_FILE);
    assert.ok(run.ok, run.ok ? '' : run.error);
    assert.deepEqual(run.value.concurrency, [1, 2]);
    assert.equal(run.value.apiKeyEnv, 'PROMPT_LENS_API_KEY');
    for (const file of files) assert.doesNotMatch(await io.readFile(`out/${file}`), /sk-never-written/);
    assert.equal((io.stdout.match(/^guidellm run/gm) ?? []).length, 4, 'one command per level');
  });

  it('refuses a prompt the tool cannot carry, naming why', async () => {
    const io = memoryIo({ 'p.prompt': 'user:\nA\nassistant:\nB\nuser:\nC\n' });
    const code = await runCli([...BENCH, '--export', 'guidellm', 'out'], io);
    assert.equal(code, 2);
    assert.match(io.stderr, /GuideLLM's data file holds one system prompt and one user prompt per row/);
    const missing = memoryIo({ ...PROMPT });
    assert.equal(await runCli([...BENCH, '--export', 'vllm'], missing), 2);
    assert.match(missing.stderr, /needs the prompt file and a folder/);
  });

  it('imports a vLLM result, prints it like a run and gives the --slo verdict', async () => {
    const files = { '/r/vllm-results.json': fixture('vllm-results.json') };
    const table = memoryIo({ ...files });
    assert.equal(
      await runCli(['import', 'vllm', '/r/vllm-results.json', '--slo', 'ttft=1000,tpot=400,min=70'], table),
      0,
    );
    assert.match(table.stdout, /SLO verdict: PASS/);
    assert.match(table.stdout, /Imported from vllm \(vllm-results\.json\); percentiles: recomputed/);
    const strict = memoryIo({ ...files });
    assert.equal(
      await runCli(['import', 'vllm', '/r/vllm-results.json', '--slo', 'ttft=250,tpot=120', '--json'], strict),
      1,
    );
    const result = JSON.parse(strict.stdout) as BenchResult & { verdict: { pass: boolean; failures: string[] } };
    assert.equal(result.source?.tool, 'vllm');
    assert.equal(result.verdict.pass, false);
    assert.match(result.verdict.failures[0] ?? '', /cold c=1: 50% met the SLOs \(needs 90%\)/);
  });

  it('reads the run description beside an Artillery report, and says what is wrong with a bad file', async () => {
    const io = memoryIo({
      '/r/report.json': fixture('artillery-report.json'),
      [`/r/${RUN_FILE}`]: fixture('artillery-run.json'),
    });
    assert.equal(await runCli(['import', 'artillery', '/r/report.json', '--json'], io), 0, io.stderr);
    assert.equal((JSON.parse(io.stdout) as BenchResult).source?.tool, 'artillery');

    const lone = memoryIo({ '/r/report.json': fixture('artillery-report.json') });
    assert.equal(await runCli(['import', 'artillery', '/r/report.json'], lone), 2);
    assert.match(lone.stderr, /needs the prompt-lens-run\.json its export wrote/);

    const bad = memoryIo({ '/r/x.json': '{"benchmarks": [], "metadata": {"version": 9}}' });
    assert.equal(await runCli(['import', 'guidellm', '/r/x.json'], bad), 2);
    assert.match(bad.stderr, /x\.json: not a GuideLLM benchmarks report/);
    const unknown = memoryIo({});
    assert.equal(await runCli(['import', 'locust', '/r/x.json'], unknown), 2);
    assert.match(unknown.stderr, /must be one of artillery, vllm, guidellm, aiperf/);
  });
});
