import assert from 'node:assert/strict';
import { Template } from '@huggingface/jinja';
import { chatTemplates } from '../../../src/core/chat/templates';
import { templateAdded, countBasis } from '../../../src/core/chat/templateText';
import { countPrompt, promptTokenCounter } from '../../../src/core/count';
import { countKey } from '../../../src/core/countKey';
import { loadTables, parseTargetId, resolveTarget, targetCountKey } from '../../../src/core/estimate';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { reference } from '../helpers/referenceTokenizers';
import { DIFFERENTIAL_PAIRS } from '../helpers/tokenizerReferences';

const PROMPT = parsePrompt('chat.prompt', 'system:\nYou answer billing questions.\nuser:\nWhy was I charged twice?');

describe('template-added tokens', () => {
  it('a Llama 3.1 count says what its template added and which arguments it assumed', () => {
    const count = countPrompt(PROMPT, getTokenizer('llama3'), undefined, 'llama-3.1-70b');
    const messages = count.messages.reduce((n, m) => n + m.tokens, 0);
    assert.ok(count.templateTokens! > 0);
    assert.equal(count.templateTokens, count.inputTokens - messages);
    assert.equal(templateAdded(count), `template: +${count.templateTokens}`);
    const basis = countBasis(count)!;
    assert.ok(basis.startsWith('Llama 3.1 / 3.3 Instruct chat template, assumed add_generation_prompt=true'), basis);
    assert.ok(basis.includes("date_string unset (the template's default date)"), basis);
  });

  it('Qwen3 names its thinking argument; counts without a template say nothing', () => {
    const qwen3 = countPrompt(PROMPT, getTokenizer('qwen2'), undefined, 'qwen3-32b');
    assert.ok(countBasis(qwen3)!.includes('enable_thinking unset (thinking on)'));
    const gpt = countPrompt(PROMPT, getTokenizer('o200k_base'), undefined, 'gpt-4o');
    assert.equal(templateAdded(gpt), undefined);
    assert.equal(countBasis(gpt), undefined);
  });

  it('a template that rejects the conversation is said, and the count falls back to the overhead rule', () => {
    const twoUsers = parsePrompt('x.prompt', 'user:\nHello\nuser:\nAgain');
    const count = countPrompt(twoUsers, getTokenizer('gemma3'), undefined, 'gemma-3-27b');
    assert.equal(templateAdded(count), undefined);
    assert.match(countBasis(count)!, /^chat template not applied \(Gemma 3.*\): counted as text \+ chat overhead$/);
  });

  it('signs and marks a count: removed tokens and approximate counts', () => {
    const template = { id: 't', name: 'T', source: 's', assumed: ['add_generation_prompt=true'] };
    assert.equal(templateAdded({ exact: true, templateTokens: -3, template }), 'template: −3');
    assert.equal(templateAdded({ exact: false, templateTokens: 1234, template }), 'template: ≈+1,234');
  });
});

describe('counts keyed by tokenizer and template', () => {
  it('qwen2.5 and qwen3 share a tokenizer, not a count', () => {
    const { tables } = loadTables();
    const qwen25 = resolveTarget(parseTargetId('qwen2.5-7b@h100-sxm'), tables);
    const qwen3 = resolveTarget(parseTargetId('qwen3-32b@h100-sxm'), tables);
    assert.equal(targetCountKey(qwen25), 'qwen2+qwen2.5');
    assert.equal(targetCountKey(qwen3), 'qwen2+qwen3');
    assert.equal(countKey('o200k_base', 'gpt-4o'), 'o200k_base');
    // Without a system message Qwen2.5's template inserts its default one; Qwen3's does not.
    const userOnly = parsePrompt('q.prompt', 'Why was I charged twice?');
    const count = promptTokenCounter(userOnly);
    const a = count('qwen2', 'qwen2.5-7b').tokens;
    const b = count('qwen2', 'qwen3-32b').tokens;
    assert.ok(a > b + 15, `${a} vs ${b}`);
    assert.equal(a, countPrompt(userOnly, getTokenizer('qwen2'), undefined, 'qwen2.5-7b').inputTokens);
    assert.equal(b, countPrompt(userOnly, getTokenizer('qwen2'), undefined, 'qwen3-32b').inputTokens);
  });
});

/**
 * An assistant message's tool calls and the tool's reply (#22): rendered by the model's own template as vLLM hands
 * them over (function.arguments parsed from JSON text into an object, tool_call_id kept). The reference renders the
 * same messages with @huggingface/jinja itself and counts them with an independent tokenizer.
 */
describe('tool calls in the messages', () => {
  const ARGUMENTS = '{"longitude": 2.2945, "latitude": 48.8567}';
  const CHAT = [
    { role: 'user', content: "What's the weather like in Paris today?" },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: ARGUMENTS } }],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '6.7' },
  ];
  const parsed = parsePrompt('weather.json', JSON.stringify({ messages: CHAT }));
  /** The messages as vLLM's chat_utils gives them to the template. */
  const vllmMessages = [
    CHAT[0],
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ ...CHAT[1]!.tool_calls![0], function: { name: 'get_weather', arguments: JSON.parse(ARGUMENTS) } }],
    },
    CHAT[2],
  ];
  const render = (id: string): string => {
    const template = chatTemplates().find((t) => t.id === id)!;
    return new Template(template.template).render({
      messages: vllmMessages,
      bos_token: template.bos_token,
      eos_token: template.eos_token,
      add_generation_prompt: true,
    });
  };

  it('are parsed into the message, with no "not counted" warning', () => {
    assert.deepEqual(parsed.errors, []);
    assert.deepEqual(parsed.messages[1]?.toolCalls, [
      { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: ARGUMENTS } },
    ]);
    assert.equal(parsed.messages[2]?.toolCallId, 'call_1');
  });

  it('Qwen2.5: the count equals the reference tokenizer (tokenizer.json) on the template-rendered chat', () => {
    const count = countPrompt(parsed, getTokenizer('qwen2'), undefined, 'Qwen/Qwen2.5-7B-Instruct');
    const rendered = render('qwen2.5');
    assert.ok(
      rendered.includes(`<tool_call>\n{"name": "get_weather", "arguments": ${ARGUMENTS}}\n</tool_call>`),
      rendered,
    );
    assert.equal(count.template?.id, 'qwen2.5');
    assert.equal(count.inputTokens, reference('qwen2').count(rendered));
    assert.ok(count.exact);
    assert.ok(
      countBasis(count)!.includes("tool calls rendered by the model's template, arguments parsed as JSON as vLLM does"),
    );
  });

  it('Llama 3.1: the count equals llama3-tokenizer-js on the template-rendered chat (special tokens one each)', () => {
    const count = countPrompt(parsed, getTokenizer('llama3'), undefined, 'meta-llama/Llama-3.1-8B-Instruct');
    const rendered = render('llama-3.1');
    // The arguments reach the template as an object: `tojson` writes them as JSON, not as a quoted string.
    assert.ok(rendered.includes(`{"name": "get_weather", "parameters": ${ARGUMENTS}}`), rendered);
    const js = DIFFERENTIAL_PAIRS.find((p) => p.name === 'llama3-tokenizer-js')!.reference();
    const pieces = rendered.split(/(<\|[a-z_]+\|>)/).filter((p) => p.length > 0);
    const expected = pieces.reduce((n, p) => n + (/^<\|[a-z_]+\|>$/.test(p) ? 1 : js.encode(p).length), 0);
    assert.equal(count.template?.id, 'llama-3.1');
    assert.equal(count.inputTokens, expected);
    assert.ok(count.exact);
  });

  it('arguments that are not JSON: the template is not applied and the count says why (vLLM rejects the request)', () => {
    const bad = parsePrompt(
      'bad.json',
      JSON.stringify([
        { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'f', arguments: '{x' } }] },
      ]),
    );
    const count = countPrompt(bad, getTokenizer('qwen2'), undefined, 'qwen2.5-7b');
    assert.match(countBasis(count)!, /chat template not applied \(.*tool call f: arguments are not JSON/);
    assert.equal(count.exact, false);
  });

  it('OpenAI targets: function name + arguments text, marked ≈ with the reason', () => {
    const o200k = getTokenizer('o200k_base');
    const count = countPrompt(parsed, o200k, undefined, 'gpt-4o');
    const without = countPrompt(
      parsePrompt('w.json', JSON.stringify({ messages: [CHAT[0], { role: 'assistant', content: null }, CHAT[2]] })),
      o200k,
      undefined,
      'gpt-4o',
    );
    assert.equal(count.inputTokens - without.inputTokens, o200k.count('get_weather') + o200k.count(ARGUMENTS));
    assert.equal(count.exact, false);
    assert.deepEqual(count.approximations, [
      'tool calls in messages counted as function name + arguments text: OpenAI publishes no rule for tool calls in the history',
    ]);
    assert.match(countBasis(count)!, /^approximate \(≈\): tool calls in messages counted as function name/);
  });
});
