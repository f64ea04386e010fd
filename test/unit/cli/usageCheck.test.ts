import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { Template } from '@huggingface/jinja';
import { runCli } from '../../../src/cli/main';
import type { BenchResult } from '../../../src/core/bench/result';
import { formatUsageCheck, usageDifference, usageDirection } from '../../../src/core/bench/usageFormat';
import { chatTemplateForModel } from '../../../src/core/chat/templates';
import { memoryIo } from '../helpers/memoryIo';
import { reference } from '../helpers/referenceTokenizers';
import { scriptedServer, type ScriptedServer, type SeenRequest } from '../helpers/scriptedServer';

// A stand-in for vLLM's billing written apart from the product's counting path: the request's
// messages through the model's Jinja template, counted by Hugging Face's tokenizer.json reference.
// `extra` tokens model a server whose template or system prompt differs from the one assumed.
function billingServer(extra: number): Promise<ScriptedServer> {
  const template = chatTemplateForModel('qwen2.5-7b')!;
  const jinja = new Template(template.template);
  const qwen = reference('qwen2');
  return scriptedServer((req: SeenRequest, res: ServerResponse) => {
    const body = JSON.parse(req.body) as { messages: unknown[] };
    const prompt = jinja.render({ messages: body.messages, add_generation_prompt: true, bos_token: '', eos_token: '' });
    const usage = { prompt_tokens: qwen.count(prompt) + extra, completion_tokens: 2 };
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const chunk = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    chunk({ choices: [{ index: 0, delta: { content: 'Hi' } }] });
    chunk({ choices: [{ index: 0, delta: { content: '!' }, finish_reason: 'stop' }] });
    chunk({ choices: [], usage });
    res.end('data: [DONE]\n\n');
  });
}

const args = (url: string) => [
  'bench',
  'p.prompt',
  '--base-url',
  `${url}/v1`,
  '--model',
  'Qwen/Qwen2.5-7B-Instruct',
  '--concurrency',
  '2',
  '--requests',
  '3',
  '--max-tokens',
  '2',
  '--cache',
  'both',
];
const files = { 'p.prompt': 'system:\nYou answer in one line.\nuser:\nSay hello in one sentence.' };

describe('benchmark usage self-check: billed prompt tokens against the local count of each request sent', function () {
  this.timeout(60_000);

  it('matches every request, nonces included, and says so in the JSON result and the report', async () => {
    const server = await billingServer(0);
    try {
      const json = memoryIo(files);
      assert.equal(await runCli([...args(server.url), '--json'], json), 0, json.stderr);
      const result = JSON.parse(json.stdout) as BenchResult;
      const requests = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests));
      assert.ok(requests.some((r) => r.nonce !== undefined) && requests.some((r) => r.nonce === undefined));
      assert.equal(result.usage?.requests, requests.length);
      assert.equal(result.usage?.matched, requests.length);
      assert.equal(result.usage?.template, 'qwen2.5');
      assert.equal(result.usage?.billed, result.usage?.local);

      const text = memoryIo(files);
      assert.equal(await runCli(args(server.url), text), 0, text.stderr);
      assert.match(
        text.stdout,
        /Prompt tokens \(usage self-check, qwen2 \+ qwen2\.5 template\): endpoint billed (\d+), local \1 ✓/,
      );
    } finally {
      await server.close();
    }
  });

  it('reports the difference when the endpoint bills more than the local count', async () => {
    const server = await billingServer(21);
    try {
      const out = memoryIo(files);
      assert.equal(await runCli(args(server.url), out), 0, out.stderr);
      assert.match(
        out.stdout,
        /endpoint billed (\d+), local (\d+): \+21, the endpoint billed more than counted locally \(a different chat template or system prompt/,
      );
      const [, billed, local] = /endpoint billed (\d+), local (\d+)/.exec(out.stdout) ?? [];
      assert.equal(Number(billed) - Number(local), 21);
    } finally {
      await server.close();
    }
  });

  it('formats counts as every surface does and says which way a difference goes', () => {
    const check = {
      requests: 12,
      matched: 0,
      billed: 5764,
      local: 5813,
      minDiff: -49,
      maxDiff: -49,
      tokenizer: 'llama3',
      exact: true,
      hint: 'another tokenizer or template on the server?',
    };
    assert.equal(
      formatUsageCheck(check),
      'endpoint billed 5,764, local 5,813: −49, the endpoint billed fewer than counted locally (another tokenizer or template on the server?) (0/12 requests equal)',
    );
    assert.equal(usageDifference({ ...check, minDiff: 1021, maxDiff: 1021 }), '+1,021');
    assert.equal(usageDifference({ ...check, minDiff: -1021, maxDiff: 3 }), '−1,021 to +3');
    assert.equal(
      usageDirection({ minDiff: -2, maxDiff: 3 }),
      'the endpoint billed more than counted locally on some requests and fewer on others',
    );
    assert.equal(
      formatUsageCheck({ ...check, billed: 12_480, local: 12_480, minDiff: 0, maxDiff: 0, matched: 12 }),
      'endpoint billed 12,480, local 12,480 ✓ (12/12 requests equal)',
    );
  });
});
