import assert from 'node:assert/strict';
import { buildStreamRequest } from '../../../../src/core/bench/runner';
import { artilleryScenario } from '../../../../src/core/interop/artillery/scenario';
import { aiperfExport } from '../../../../src/core/interop/peers/aiperf';
import { runNonces, type PeerExport } from '../../../../src/core/interop/peers/common';
import { guidellmExport } from '../../../../src/core/interop/peers/guidellm';
import { vllmExport } from '../../../../src/core/interop/peers/vllm';
import { exportedRunSchema, runLevels, withRunId, type ExportedRun } from '../../../../src/core/interop/run';

function makeRun(overrides: Partial<ExportedRun> = {}): ExportedRun {
  return withRunId({
    createdAt: '2026-12-01T10:00:00.000Z',
    prompt: 'support.prompt',
    endpoint: {
      name: 'local',
      kind: 'openai-chat',
      baseUrl: 'http://127.0.0.1:8000/v1',
      model: 'Qwen/Qwen2.5-7B-Instruct',
    },
    messages: [
      { role: 'system', content: 'You are a support agent.' },
      { role: 'user', content: 'Where is my parcel?' },
    ],
    maxTokens: 64,
    requests: 5,
    warmup: 1,
    cache: 'both',
    concurrency: [1, 4],
    timeoutMs: 60000,
    slo: { ttftMs: 500, tpotMs: 30 },
    apiKeyEnv: 'PROMPT_LENS_API_KEY',
    ...overrides,
  });
}

const lines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const made = (r: { ok: true; value: PeerExport } | { ok: false; error: string }): PeerExport => {
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.value;
};
const seeded = () => {
  let x = 0.42;
  return runNonces(() => (x = ((x * 9301 + 49297) % 233280) / 233280));
};

describe('exports of a run', () => {
  it('gives the run an id from its content and validates it', () => {
    const a = makeRun();
    assert.equal(makeRun().id, a.id);
    assert.notEqual(makeRun({ maxTokens: 65 }).id, a.id);
    assert.equal(makeRun({ createdAt: 'later' }).id, a.id, 'the creation time is not part of it');
    assert.ok(exportedRunSchema.safeParse(a).success);
    const both = exportedRunSchema.safeParse({ ...a, ratePerSecond: 2 });
    assert.ok(!both.success);
  });

  it('lists the levels as the built-in client runs them and names them in the Artillery scenario', () => {
    const run = makeRun();
    assert.deepEqual(
      runLevels(run).map((l) => l.key),
      ['cold.c1', 'cold.c4', 'warm.c1', 'warm.c4'],
    );
    assert.deepEqual(
      runLevels(makeRun({ concurrency: undefined, ratePerSecond: 2.5, cache: 'warm' })).map((l) => [l.key, l.label]),
      [['warm.r2_5', 'rate=2.5/s']],
    );
    const scenario = artilleryScenario(run);
    assert.match(scenario, /target: "http:\/\/127\.0\.0\.1:8000\/v1"/);
    assert.match(scenario, /arrivalCount: 1/);
    assert.match(scenario, /- function: promptLensLevel\n {8}over:\n {10}- "cold\.c1" # cold c=1\n/);
    assert.doesNotMatch(scenario, /PROMPT_LENS_API_KEY=|Bearer/);
  });

  describe('vLLM', () => {
    it('renders a system + user prompt with the model’s chat template for /v1/completions', () => {
      const out = made(vllmExport(makeRun(), seeded()));
      assert.deepEqual(
        out.files.map((f) => f.name),
        ['vllm-cold-c1.jsonl', 'vllm-cold-c4.jsonl', 'vllm-warm-c1.jsonl', 'vllm-warm-c4.jsonl'],
      );
      const cold = lines(out.files[1]!.text);
      assert.equal(cold.length, 5, 'cold: the measured requests only (vLLM warm-ups would repeat the first)');
      const prompt = cold[0]!.prompt as string;
      assert.match(
        prompt,
        /^<\|im_start\|>system\n\[[0-9a-z]+\] You are a support agent\.<\|im_end\|>\n<\|im_start\|>user\nWhere is my parcel\?<\|im_end\|>\n<\|im_start\|>assistant\n$/,
      );
      const warm = lines(out.files[3]!.text);
      assert.equal(warm.length, 4 + 5, 'warm: one warm-up round as wide as the level, then the measured requests');
      assert.equal(new Set(warm.map((l) => l.prompt)).size, 1);
      assert.match(
        out.commands[1]!,
        /--backend openai \\\n {2}--base-url http:\/\/127\.0\.0\.1:8000 \\\n {2}--endpoint \/v1\/completions/,
      );
      assert.match(out.commands[1]!, /--max-concurrency 4 --request-rate inf/);
      assert.match(out.commands[1]!, /--num-warmups 0/);
      assert.match(out.commands[3]!, /--num-warmups 4/);
      assert.match(out.commands[0]!, /--goodput ttft:500 tpot:30/);
      assert.match(out.commands[0]!, /--metadata prompt_lens_run=[0-9a-f]{12} prompt_lens_cache=cold /);
      assert.match(out.commands[0]!, /--extra-body '\{"add_special_tokens":false\}'/);
    });

    it('sends a lone user message to /v1/chat/completions, and refuses roles it cannot carry', () => {
      const single = made(vllmExport(makeRun({ messages: [{ role: 'user', content: 'Hi' }] }), seeded()));
      assert.match(single.commands[0]!, /--backend openai-chat/);
      assert.deepEqual(lines(single.files[2]!.text)[0], { prompt: 'Hi' });
      const unknown = vllmExport(
        makeRun({ endpoint: { ...makeRun().endpoint, model: 'acme/secret-model' } }),
        seeded(),
      );
      assert.ok(!unknown.ok);
      assert.match(
        unknown.error,
        /2 messages \(system, user\) must be rendered with its chat template, and none is known for model acme\/secret-model/,
      );
    });
  });

  it('GuideLLM: a system_prompt and a prompt column, warm-ups as GuideLLM warm-up requests', () => {
    const out = made(guidellmExport(makeRun(), seeded()));
    const cold = lines(out.files[1]!.text);
    assert.equal(cold.length, 4 + 5);
    assert.match(cold[0]!.system_prompt as string, /^\[[0-9a-z]+\] You are a support agent\.$/);
    assert.equal(cold[0]!.prompt, 'Where is my parcel?');
    assert.match(out.commands[1]!, /"kind":"concurrent","streams":\[4\],"warmup":\{"value":4,"mode":"requests"\}/);
    assert.match(out.commands[1]!, /--constraint kind=max_requests,count=9/);
    const refused = guidellmExport(
      makeRun({ messages: [...makeRun().messages, { role: 'assistant', content: 'ok' }] }),
      seeded(),
    );
    assert.ok(!refused.ok);
    assert.match(
      refused.error,
      /one system prompt and one user prompt per row; this prompt's messages are system, user, assistant/,
    );
  });

  it('AIPerf: the exact body the built-in client sends, as mooncake_trace payloads', () => {
    const run = makeRun();
    const out = made(aiperfExport(run, seeded()));
    const warm = lines(out.files[3]!.text);
    const expected = JSON.parse(
      buildStreamRequest(run.endpoint, undefined, run.messages, run.maxTokens).body,
    ) as unknown;
    assert.deepEqual(warm[0]!.payload, expected);
    assert.match(out.commands[3]!, /--concurrency 4/);
    assert.match(out.commands[3]!, /--request-count 5 --warmup-request-count 4/);
  });

  it('never repeats a cold nonce across levels or tools', () => {
    const nonce = seeded();
    const run = makeRun();
    const texts = [vllmExport(run, nonce), guidellmExport(run, nonce), aiperfExport(run, nonce)].flatMap((r) =>
      made(r)
        .files.filter((f) => f.name.includes('cold'))
        .flatMap((f) => f.text.trim().split('\n')),
    );
    const nonces = texts.map((t) => /\[([0-9a-z]+)\] You are/.exec(t)?.[1]);
    assert.ok(nonces.every(Boolean));
    assert.equal(new Set(nonces).size, nonces.length);
  });
});
