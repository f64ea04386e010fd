import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import type { BenchResult } from '../../../src/core/bench/result';
import { startSimulator, type RunningSimulator } from '../../../src/core/sim/server';
import { memoryIo } from '../helpers/memoryIo';
import { scriptedServer } from '../helpers/scriptedServer';

const KEY = 'sk-cli-0a1b2c3d4e5f6a7b8c9d';
const fastSim = () =>
  startSimulator({
    latency: { prefillMs: () => 2, tpotMs: () => 1 },
    tokenize: (t) => Array.from(t, (c) => c.charCodeAt(0)),
  });

describe('prompt-lens bench', () => {
  let sim: RunningSimulator;
  before(async () => {
    sim = await fastSim();
  });
  after(() => sim.close());

  const io = (files: Record<string, string> = {}) =>
    memoryIo({ 'p.prompt': 'Summarise Hamlet in one line.', ...files });

  it('prints the full result as JSON with --json, progress on stderr, exit 0', async () => {
    const out = io();
    const code = await runCli(
      [
        'bench',
        'p.prompt',
        '--base-url',
        sim.url,
        '--model',
        'm',
        '--concurrency',
        '1,2',
        '--requests',
        '3',
        '--max-tokens',
        '4',
        '--json',
      ],
      out,
    );
    assert.equal(code, 0, out.stderr);
    const result = JSON.parse(out.stdout) as BenchResult;
    assert.deepEqual(
      result.modes[0]!.levels.map((l) => [l.label, l.summary.succeeded]),
      [
        ['c=1', 3],
        ['c=2', 3],
      ],
    );
    assert.equal(result.modes[0]!.levels[0]!.requests[0]!.outputTokens, 4);
    assert.match(out.stderr, /bench cold c=2: 3\/3 done, 0 failed/);
  });

  it("shows the estimation engine's prediction beside the measurement when mapped to a target", async () => {
    const out = io();
    const code = await runCli(
      [
        'bench',
        'p.prompt',
        '--base-url',
        sim.url,
        '--model',
        'm',
        '--concurrency',
        '1',
        '--requests',
        '2',
        '--max-tokens',
        '4',
        '--target',
        'openai/gpt-4o',
        '--json',
      ],
      out,
    );
    assert.equal(code, 0, out.stderr);
    const result = JSON.parse(out.stdout) as BenchResult;
    assert.equal(result.endpoint.target, 'openai/gpt-4o');
    assert.ok(result.prediction?.ttftMs !== undefined && result.prediction.ttftMs > 0);
    assert.equal(typeof result.modes[0]!.levels[0]!.predictionErrorPct?.ttft, 'number');
    // The readable report shows it too.
    const text = io();
    assert.equal(
      await runCli(
        [
          'bench',
          'p.prompt',
          '--base-url',
          sim.url,
          '--model',
          'm',
          '--concurrency',
          '1',
          '--requests',
          '2',
          '--max-tokens',
          '4',
          '--target',
          'openai/gpt-4o',
        ],
        text,
      ),
      0,
      text.stderr,
    );
    assert.match(
      text.stdout,
      /Predicted for openai\/gpt-4o \(cold prompt, one request at a time\): TTFT \d+ ms, TPOT [\d.]+ ms;.*\n {2}cold c=1: TTFT [+-]\d+%, TPOT [+-]\d+%/,
    );
    const bad = io();
    assert.equal(
      await runCli(
        [
          'bench',
          'p.prompt',
          '--base-url',
          sim.url,
          '--model',
          'm',
          '--requests',
          '1',
          '--concurrency',
          '1',
          '--target',
          'openai/gpt-4q',
          '--json',
        ],
        bad,
      ),
      0,
    );
    assert.match(bad.stderr, /target: .*did you mean openai\/gpt-4o/);
  });

  it('prints a readable table, and exits 1 when the --slo verdict fails', async () => {
    const out = io();
    const code = await runCli(
      [
        'bench',
        'p.prompt',
        '--base-url',
        sim.url,
        '--model',
        'm',
        '--concurrency',
        '1',
        '--requests',
        '2',
        '--max-tokens',
        '3',
        '--cache',
        'both',
        '--slo',
        'ttft=0.001,tpot=30',
      ],
      out,
    );
    assert.equal(code, 1);
    assert.match(out.stdout, /cache\s+level\s+ok\s+TTFT p50/);
    assert.match(out.stdout, /^cold\s+c=1\s+2\/2/m);
    assert.match(
      out.stdout,
      /Prefix cache \(cold vs warm TTFT\):\n {2}([\d.]+× faster|no measurable speedup|slower when warm): cold /,
    );
    assert.match(out.stdout, /SLO verdict: FAIL\n {2}cold c=1: 0% met the SLOs \(needs 90%\)/);
  });

  it('reads a named endpoint from an endpoints file', async () => {
    const endpoints = JSON.stringify([{ name: 'sim', baseUrl: sim.url, model: 'm' }]);
    const out = io({ 'endpoints.json': endpoints });
    const code = await runCli(
      [
        'bench',
        'p.prompt',
        '--endpoint',
        'sim',
        '--endpoints',
        'endpoints.json',
        '--concurrency',
        '1',
        '--requests',
        '1',
        '--max-tokens',
        '2',
        '--json',
      ],
      out,
    );
    assert.equal(code, 0, out.stderr);
    assert.equal((JSON.parse(out.stdout) as BenchResult).endpoint.name, 'sim');
  });

  it('exits 1 when every request failed, and never prints the API key, even when the endpoint echoes it', async () => {
    const server = await scriptedServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization}` } }));
    });
    try {
      for (const json of [true, false]) {
        const out = io();
        out.env = { MY_KEY: KEY };
        const code = await runCli(
          [
            'bench',
            'p.prompt',
            '--base-url',
            server.url,
            '--model',
            'm',
            '--api-key-env',
            'MY_KEY',
            '--concurrency',
            '1',
            '--requests',
            '2',
            ...(json ? ['--json'] : []),
          ],
          out,
        );
        assert.equal(code, 1);
        assert.equal(server.seen.at(-1)!.headers.authorization, `Bearer ${KEY}`, 'the key was sent');
        assert.match(
          out.stdout,
          /HTTP 401 unauthorized: check the API key: Incorrect API key provided: Bearer \[redacted\]/,
        );
        assert.ok(!out.stdout.includes(KEY) && !out.stderr.includes(KEY), 'the key leaked');
      }
    } finally {
      await server.close();
    }
  });

  it('bad usage is one line on stderr and exit 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['p.prompt'], /name an endpoint/],
      [['p.prompt', '--base-url', sim.url, '--model', 'm', '--concurrency', '1', '--rate', '2'], /exclude each other/],
      [
        ['p.prompt', '--base-url', sim.url, '--model', 'm', '--concurrency', '0,4'],
        /--concurrency: must be a comma-separated list/,
      ],
      [['p.prompt', '--base-url', sim.url, '--model', 'm', '--requests', 'ten'], /--requests: must be a number/],
      [
        ['p.prompt', '--base-url', sim.url, '--model', 'm', '--slo', 'ttft=fast'],
        /--slo: 'ttft=fast' is not KEY=POSITIVE_NUMBER/,
      ],
      [['p.prompt', '--base-url', sim.url, '--model', 'm', '--cache', 'hot'], /--cache: must be cold, warm or both/],
      [['p.prompt', '--base-url', 'ftp://x', '--model', 'm'], /--base-url: must be an http\(s\) URL/],
      [['p.prompt', '--base-url', sim.url, '--model', 'm', '--kind', 'grpc'], /--kind: must be one of openai-chat/],
      [
        ['p.prompt', '--base-url', sim.url, '--model', 'm', '--api-key-env', 'NOPE'],
        /the environment variable NOPE is not set/,
      ],
      [['p.prompt', '--endpoint', 'x'], /needs --endpoints FILE/],
      [['p.prompt', '--endpoint', 'x', '--endpoints', 'e.json'], /e\.json: 0\.baseUrl: must be an http\(s\) URL/],
      [['missing.prompt', '--base-url', sim.url, '--model', 'm'], /cannot read missing\.prompt: no such file/],
    ];
    for (const [args, message] of cases) {
      const out = io({ 'e.json': '[{"name":"x","baseUrl":"nope","model":"m"}]' });
      assert.equal(await runCli(['bench', ...args], out), 2, args.join(' '));
      assert.match(out.stderr, message);
      assert.equal(out.stderr.trimEnd().split('\n').length, 1, out.stderr);
    }
  });
});

describe('prompt-lens serve-sim', () => {
  it('rejects bad flags with exit 2 before listening', async () => {
    const out = memoryIo({});
    assert.equal(await runCli(['serve-sim', '--port', '70000'], out), 2);
    assert.match(out.stderr, /--port: must be at most 65535/);
  });
});
