import assert from 'node:assert/strict';
import { benchMessages, nonceSource, withNonce } from '../../../../src/core/bench/benchPrompt';
import { loadEndpointsFile, parseEndpoint } from '../../../../src/core/bench/endpoints';
import type { ParsedPrompt } from '../../../../src/core/prompt/types';

const prompt = (extra: Partial<ParsedPrompt> = {}): ParsedPrompt => ({
  format: 'prompty',
  engine: 'jinja2',
  messages: [
    { role: 'system', text: 'Hi {{name}}', rendered: 'Hi Ada', range: { start: 0, end: 11 } },
    { role: 'user', text: 'Go', rendered: 'Go', range: { start: 12, end: 14 } },
  ],
  variables: [{ name: 'name', filled: true, range: { start: 3, end: 11 } }],
  settings: {},
  errors: [],
  ...extra,
});

describe('benchmark prompt', () => {
  it('sends the rendered messages', () => {
    assert.deepEqual(benchMessages(prompt()), {
      ok: true,
      messages: [
        { role: 'system', content: 'Hi Ada' },
        { role: 'user', content: 'Go' },
      ],
    });
  });

  it('stops on unfilled variables, naming each once', () => {
    const unfilled = { filled: false, range: { start: 0, end: 1 } };
    const result = benchMessages(
      prompt({
        variables: [
          { name: 'topic', ...unfilled },
          { name: 'tone', ...unfilled },
          { name: 'topic', ...unfilled },
        ],
      }),
    );
    assert.deepEqual(result, {
      ok: false,
      error: 'the prompt has variables without sample values (topic, tone); give them sample data before benchmarking',
    });
  });

  it("stops on a prompt with nothing to send, with the parser's reason; other diagnostics do not stop it", () => {
    const error = { message: 'front matter is not YAML', range: { start: 0, end: 3 } };
    assert.deepEqual(benchMessages(prompt({ messages: [], variables: [], errors: [error] })), {
      ok: false,
      error: 'the prompt has no message text to send (front matter is not YAML)',
    });
    assert.equal(benchMessages(prompt({ errors: [error] })).ok, true);
  });

  it('says which declared parts a request does not carry: tools, the response format, tool calls in the history', () => {
    const call = { type: 'function' as const, function: { name: 'f', arguments: '{}' } };
    const [system, user] = prompt().messages;
    const result = benchMessages(
      prompt({
        messages: [system!, { ...user!, role: 'assistant', toolCalls: [call, call] }],
        settings: {
          request: {
            tools: [
              { type: 'function', function: { name: 'f' } },
              { type: 'function', function: { name: 'g' } },
            ],
            responseFormat: { type: 'json_object' },
          },
        },
      }),
    );
    assert.equal(result.ok, true);
    assert.equal(
      result.ok && result.notSent,
      "the benchmark sends each message's role and text only; not sent: 2 declared tools, the response format, " +
        '2 tool calls in the history — it measures a shorter prompt than the editor counts',
    );
    const one = benchMessages(
      prompt({ settings: { request: { tools: [{ type: 'function', function: { name: 'f' } }] } } }),
    );
    assert.equal(one.ok && one.notSent?.includes('not sent: 1 declared tool —'), true);
    assert.equal('notSent' in benchMessages(prompt()), false);
  });

  it('nonces never repeat and go first in the first message only', () => {
    const next = nonceSource(() => 0.25);
    const nonces = Array.from({ length: 1000 }, next);
    assert.equal(new Set(nonces).size, 1000);
    const messages = withNonce(
      [
        { role: 'system', content: 'A' },
        { role: 'user', content: 'B' },
      ],
      'n1',
    );
    assert.deepEqual(messages, [
      { role: 'system', content: '[n1] A' },
      { role: 'user', content: 'B' },
    ]);
  });
});

describe('endpoint config', () => {
  it('defaults the kind to openai-chat and trims a trailing slash from the base URL', () => {
    const parsed = parseEndpoint({ name: 'vllm', baseUrl: 'http://127.0.0.1:8000/v1/', model: 'qwen' });
    assert.deepEqual(parsed, {
      ok: true,
      value: { name: 'vllm', kind: 'openai-chat', baseUrl: 'http://127.0.0.1:8000/v1', model: 'qwen' },
    });
  });

  it('names each bad field, refuses credentials in headers and duplicate names', () => {
    const text = JSON.stringify({
      endpoints: [
        { name: 'a', baseUrl: 'http://x', model: 'm' },
        { name: 'a', kind: 'soap', baseUrl: 'http://x', model: 'm', headers: { 'X-Api-Key': 'k' } },
      ],
    });
    const loaded = loadEndpointsFile(text, 'e.json');
    assert.equal(loaded.ok, false);
    const error = (loaded as { error: string }).error;
    assert.match(error, /^e\.json: /);
    assert.match(error, /1\.kind: /);
    assert.match(error, /1\.headers: must not hold credentials/);
    const twice = loadEndpointsFile(
      JSON.stringify([
        { name: 'a', baseUrl: 'http://x', model: 'm' },
        { name: 'a', baseUrl: 'http://y', model: 'm' },
      ]),
      'e.json',
    );
    assert.match((twice as { error: string }).error, /1\.name: duplicate endpoint name 'a'/);
    assert.match((loadEndpointsFile('{', 'e.json') as { error: string }).error, /e\.json: not valid JSON/);
    assert.match((loadEndpointsFile('{"x":1}', 'e.json') as { error: string }).error, /expected a JSON array/);
  });
});
