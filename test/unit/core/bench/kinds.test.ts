import assert from 'node:assert/strict';
import { WIRE_FORMATS } from '../../../../src/core/bench/kinds';
import type { ChatMessage } from '../../../../src/core/prompt/types';

const messages: ChatMessage[] = [
  { role: 'system', content: 'Be brief.' },
  { role: 'developer', content: 'No lists.' },
  { role: 'user', content: 'Hi?' },
];
const shape = { model: 'm', messages, maxTokens: 33 };
const msg = (data: unknown, event = 'message') => ({
  event,
  data: typeof data === 'string' ? data : JSON.stringify(data),
});

describe('endpoint wire formats', () => {
  it('openai-chat asks for a streamed, deterministic answer with a usage trailer and a bearer key', () => {
    const wire = WIRE_FORMATS['openai-chat'];
    assert.equal(wire.path, '/chat/completions');
    assert.deepEqual(wire.headers('sk-1'), { authorization: 'Bearer sk-1' });
    assert.deepEqual(wire.headers(undefined), {});
    assert.deepEqual(wire.body(shape), {
      model: 'm',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'system', content: 'No lists.' },
        { role: 'user', content: 'Hi?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0,
      max_tokens: 33,
    });
  });

  it('openai chunks: role-only is no text, content and reasoning are, usage, finish, [DONE] and errors are read', () => {
    const read = WIRE_FORMATS['openai-chat'].interpret;
    assert.equal(
      read(msg({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })).text,
      '',
    );
    assert.equal(read(msg({ choices: [{ index: 0, delta: { content: 'Hel' } }] })).text, 'Hel');
    assert.equal(
      read(msg({ choices: [{ index: 0, delta: { content: null, reasoning_content: 'think' } }] })).text,
      'think',
    );
    assert.deepEqual(read(msg({ choices: [{ index: 0, delta: {}, finish_reason: 'length' }] })), {
      text: '',
      finish: 'length',
    });
    const usage = read(msg({ choices: [], usage: { total_tokens: 9, prompt_tokens: 5, completion_tokens: 4 } }));
    assert.deepEqual([usage.inputTokens, usage.outputTokens, usage.text], [5, 4, undefined]);
    assert.deepEqual(read(msg('[DONE]')), { done: true });
    assert.match(
      read(msg({ error: { message: 'stream failed', code: 'bad_request' } })).error ?? '',
      /stream failed \(bad_request\)/,
    );
    assert.match(read(msg({ message: 'boom' }, 'error')).error ?? '', /boom/);
    assert.match(read(msg('{"choices": [')).malformed ?? '', /not JSON/);
  });

  it('openai-completions sends one prompt string and reads `text`', () => {
    const wire = WIRE_FORMATS['openai-completions'];
    assert.equal(wire.path, '/completions');
    const body = wire.body(shape) as { prompt: string; messages?: unknown };
    assert.equal(body.prompt, 'Be brief.\n\nNo lists.\n\nHi?');
    assert.equal(body.messages, undefined);
    assert.equal(wire.interpret(msg({ choices: [{ index: 0, text: ' world', finish_reason: null }] })).text, ' world');
  });

  it('anthropic-messages puts system text at the top level and sends x-api-key with a version', () => {
    const wire = WIRE_FORMATS['anthropic-messages'];
    assert.equal(wire.path, '/messages');
    assert.deepEqual(wire.headers('k'), { 'anthropic-version': '2023-06-01', 'x-api-key': 'k' });
    assert.deepEqual(wire.body(shape), {
      model: 'm',
      max_tokens: 33,
      temperature: 0,
      stream: true,
      system: 'Be brief.\n\nNo lists.',
      messages: [{ role: 'user', content: 'Hi?' }],
    });
  });

  it('anthropic events: text deltas, input and output usage, stop reason, stop, ping and errors', () => {
    const read = WIRE_FORMATS['anthropic-messages'].interpret;
    assert.equal(
      read(
        msg(
          { type: 'message_start', message: { id: 'x', usage: { input_tokens: 12, output_tokens: 1 } } },
          'message_start',
        ),
      ).inputTokens,
      12,
    );
    assert.deepEqual(read(msg({ type: 'ping' }, 'ping')), {});
    assert.deepEqual(
      read(msg({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })),
      {},
    );
    assert.equal(
      read(msg({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } })).text,
      'Hi',
    );
    assert.deepEqual(
      read(msg({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 7 } })),
      { outputTokens: 7, finish: 'end_turn' },
    );
    assert.deepEqual(read(msg({ type: 'message_stop' })), { done: true });
    assert.match(
      read(msg({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, 'error')).error ?? '',
      /Overloaded \(overloaded_error\)/,
    );
  });

  it('ollama-chat uses NDJSON, num_predict, and reads the final counts', () => {
    const wire = WIRE_FORMATS['ollama-chat'];
    assert.equal(wire.framing, 'ndjson');
    assert.deepEqual((wire.body(shape) as { options: unknown }).options, { temperature: 0, num_predict: 33 });
    assert.equal(
      wire.interpret(msg({ model: 'q', message: { role: 'assistant', content: 'Hel' }, done: false })).text,
      'Hel',
    );
    const last = wire.interpret(
      msg({
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 30,
        eval_count: 10,
      }),
    );
    assert.deepEqual(last, { text: '', done: true, finish: 'stop', inputTokens: 30, outputTokens: 10 });
    assert.equal(wire.interpret(msg({ error: 'model not found' })).error, 'model not found');
  });
});
