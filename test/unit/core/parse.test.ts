import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { cpuMs } from '../helpers/cpuTime';

const read = (name: string): string => readFileSync(join(__dirname, '../../fixtures/prompts', name), 'utf8');
const parse = (name: string, options = {}) => {
  const text = read(name);
  return { text, parsed: parsePrompt(name, text, options) };
};
const o200k = getTokenizer('o200k_base');

describe('parsePrompt', () => {
  it('plain: role-marker lines split messages; ranges point at each message text', () => {
    const { text, parsed } = parse('roles.prompt');
    assert.deepEqual(
      parsed.messages.map((m) => m.role),
      ['system', 'user'],
    );
    for (const m of parsed.messages) assert.equal(text.slice(m.range.start, m.range.end), m.text);
    assert.deepEqual(
      parsed.variables.map((v) => [v.name, text.slice(v.range.start, v.range.end)]),
      [
        ['product', '{{ product }}'],
        ['if long', '{% if long %}'],
        ['endif', '{% endif %}'],
      ],
    );
  });

  it("plain without markers: one user message whose count is the exact text's (CRLF, special tokens, CJK, emoji, empty)", () => {
    for (const name of ['crlf.prompt', 'empty.prompt']) {
      const { text, parsed } = parse(name);
      assert.equal(parsed.messages.length, 1);
      assert.equal(countPrompt(parsed, o200k).contentTokens, o200k.count(text));
    }
  });

  it('prompty: front matter model, sample and input defaults fill variables; the rest are listed', () => {
    const { text, parsed } = parse('support.prompty');
    assert.equal(parsed.settings.model, 'gpt-4o');
    assert.deepEqual(
      parsed.messages.map((m) => [m.role, m.rendered]),
      [
        ['system', 'You are a friendly support agent.'],
        ['user', 'Ada asks: Why is my invoice late?\nOrder: {{order_id}}'],
      ],
    );
    const unfilled = parsed.variables.filter((v) => !v.filled);
    assert.deepEqual(
      unfilled.map((v) => text.slice(v.range.start, v.range.end)),
      ['{{order_id}}'],
    );
    const count = countPrompt(parsed, o200k);
    assert.equal(
      count.contentTokens,
      o200k.count('You are a friendly support agent.') +
        o200k.count('Ada asks: Why is my invoice late?\nOrder: {{order_id}}'),
    );
    assert.equal(count.inputTokens, count.contentTokens + 2 * 4 + 3);
  });

  it('prompty 2: model.id and a list of inputs with example/default values', () => {
    const text =
      '---\nmodel:\n  id: llama-3.1-8b\ninputs:\n  - name: city\n    example: Lisbon\n  - name: days\n    default: 3\n  - name: budget\n---\nuser:\n{{city}} for {{days}} days on {{budget}}\n';
    const parsed = parsePrompt('a.prompty', text);
    assert.equal(parsed.settings.model, 'llama-3.1-8b');
    assert.equal(parsed.messages[0]?.rendered, 'Lisbon for 3 days on {{budget}}');
  });

  it('prompty with bad YAML: errors with ranges inside the front matter, body still counted', () => {
    const { text, parsed } = parse('broken.prompty');
    assert.ok(parsed.errors.length > 0);
    const end = text.indexOf('\n---', 3);
    for (const e of parsed.errors) assert.ok(e.range.start >= 4 && e.range.end <= end, JSON.stringify(e));
    assert.equal(parsed.messages[0]?.text, 'Hello {{ name }}');
  });

  it('.prompt.yml: messages, model, first testData case; content ranges in the file', () => {
    const { text, parsed } = parse('summarize.prompt.yml');
    assert.equal(parsed.settings.model, 'openai/gpt-4.1');
    assert.deepEqual(
      parsed.messages.map((m) => m.rendered),
      ['You summarise text in French.', 'Summarise: The quick brown fox jumps over the lazy dog.'],
    );
    assert.ok(parsed.variables.every((v) => v.filled));
    assert.equal(
      text.slice(parsed.messages[0]?.range.start, parsed.messages[0]?.range.end),
      'You summarise text in {{language}}.',
    );
  });

  it('.prompt.yml with a wrong shape: errors name the field and point at its node', () => {
    const { text, parsed } = parse('broken.prompt.yml');
    const role = parsed.errors.find((e) => e.message.includes('messages[0].role'));
    assert.ok(role, JSON.stringify(parsed.errors));
    assert.equal(text.slice(role.range.start, role.range.end), 'narrator');
    assert.equal(parsed.messages[0]?.text, text, 'raw text kept for a best-effort count');
  });

  it('schema errors in Prompty front matter and chat JSON point at the offending node', () => {
    const prompty = '---\nmodel:\n  id: 42\n---\nuser:\nhi\n';
    const fm = parsePrompt('a.prompty', prompty).errors[0];
    assert.match(fm?.message ?? '', /^front matter\.model/);
    assert.equal(prompty.slice(fm?.range.start, fm?.range.end), 'id: 42');
    const json = '{"messages": [{"role": "robot", "content": "x"}]}';
    const chat = parsePrompt('a.json', json).errors[0];
    assert.match(chat?.message ?? '', /^chat JSON\.messages\[0\]\.role: /);
    assert.equal(json.slice(chat?.range.start, chat?.range.end), '"robot"');
  });

  it('a billion-laughs YAML fails fast with an error instead of hanging', () => {
    let laughs: ReturnType<typeof parse> | undefined;
    const used = cpuMs(() => (laughs = parse('laughs.prompt.yml')));
    assert.ok(used < 1000, `${used.toFixed(0)} ms of CPU`);
    assert.match(laughs!.parsed.errors[0]?.message ?? '', /alias/i);
  });

  it('.prompt.md: front matter model and ${...} variables', () => {
    const { parsed } = parse('review.prompt.md');
    assert.equal(parsed.settings.model, 'claude-sonnet-4');
    assert.deepEqual(
      parsed.variables.map((v) => v.name),
      ['selection', 'input:focus'],
    );
    assert.equal(parsed.messages.length, 1);
  });

  it('chat JSON: content parts (text counted, image warned), model, bare arrays', () => {
    const { parsed } = parse('chat.json');
    assert.equal(parsed.settings.model, 'llama-3.1-70b');
    assert.deepEqual(
      parsed.messages.map((m) => [m.role, m.text]),
      [
        ['system', 'You are helpful.'],
        ['user', 'What is in this image?'],
        ['assistant', 'A cat.'],
      ],
    );
    assert.deepEqual(
      parsed.errors.map((e) => e.severity),
      ['warning'],
    );
    const bare = parse('chat-array.json');
    assert.deepEqual(
      bare.parsed.variables.map((v) => [v.name, bare.text.slice(v.range.start, v.range.end)]),
      [['name', '{{ name }}']],
    );
  });

  it('chat JSON: tool calls are read into their message; entries of another shape are warned about, not counted', () => {
    const call = { id: '1', type: 'function', function: { name: 'f', arguments: '{}' } };
    const parsed = parsePrompt(
      't.json',
      JSON.stringify([
        {
          role: 'assistant',
          content: null,
          tool_calls: [call, { type: 'function', function: { arguments: '{}' } }, 7],
        },
        { role: 'assistant', tool_calls: [{ type: 'function', function: { name: 'g', arguments: { a: 1 } } }] },
        { role: 'tool', tool_call_id: '1', content: 'ok' },
        { role: 'assistant', content: 'x', tool_calls: 'nope', function_call: { name: 'f', arguments: '{}' } },
      ]),
    );
    assert.deepEqual(
      parsed.errors.map((e) => [e.severity, e.message]),
      [
        [
          'warning',
          'messages[0].tool_calls[1]: not a function tool call ({ type: "function", function: { name, arguments } }); not counted',
        ],
        [
          'warning',
          'messages[0].tool_calls[2]: not a function tool call ({ type: "function", function: { name, arguments } }); not counted',
        ],
        ['warning', 'messages[3].tool_calls: not a list of tool calls; not counted'],
        ['warning', 'messages[3]: function_call (deprecated; use tool_calls) is not counted'],
      ],
    );
    assert.equal(parsed.messages[0]?.text, '');
    assert.deepEqual(parsed.messages[0]?.toolCalls, [call]);
    // An object's arguments are kept as their JSON text, as OpenAI sends them.
    assert.deepEqual(parsed.messages[1]?.toolCalls, [
      { type: 'function', function: { name: 'g', arguments: '{"a":1}' } },
    ]);
    assert.equal(parsed.messages[2]?.toolCallId, '1');
    assert.equal(parsed.messages[3]?.toolCalls, undefined);
  });

  it('malformed JSON: an error and the raw text as one message', () => {
    const { text, parsed } = parse('broken.json');
    assert.equal(parsed.errors.length, 1);
    assert.match(parsed.errors[0]?.message ?? '', /^JSON: /);
    assert.equal(countPrompt(parsed, o200k).contentTokens, o200k.count(text));
  });

  it('extra variable patterns from settings; an invalid one is a warning, not a crash', () => {
    const parsed = parsePrompt('x.prompt', 'Hi <<name>> and [[other]]', { variablePatterns: ['<<(\\w+)>>', '[['] });
    assert.deepEqual(
      parsed.variables.map((v) => v.name),
      ['name'],
    );
    assert.equal(parsed.errors[0]?.severity, 'warning');
  });

  it('stays fast on hostile input: unclosed placeholders before long runs', () => {
    const n = 200_000;
    for (const text of [
      '{{' + ' '.repeat(n),
      '{%' + ' '.repeat(n),
      '{% '.repeat(n / 3),
      '{{{ -'.repeat(n / 5),
      '---\n' + '-'.repeat(n),
      ' '.repeat(n) + 'user',
      'user:\n' + '\n'.repeat(n) + 'x',
      '#'.repeat(n),
    ]) {
      for (const name of ['a.prompty', 'a.prompt.md']) {
        const used = cpuMs(() => parsePrompt(name, text));
        assert.ok(used < 500, `${name}: ${JSON.stringify(text.slice(0, 12))}… took ${used.toFixed(0)} ms of CPU`);
      }
    }
  });

  it('role markers as Prompty writes them: headings, attributes, any case; a preamble is a system message', () => {
    const text = 'Be brief.\n# User:\n  Hi {{ name }}\n\nassistant[name="Bot"]:\r\nHello\r\n\r\n';
    const parsed = parsePrompt('a.prompty', text);
    assert.deepEqual(
      parsed.messages.map((m) => [m.role, m.text]),
      [
        ['system', 'Be brief.'],
        ['user', '  Hi {{ name }}'],
        ['assistant', 'Hello'],
      ],
    );
    for (const m of parsed.messages) assert.equal(text.slice(m.range.start, m.range.end), m.text);
  });

  it('recognises whitespace-control and triple-brace forms', () => {
    const parsed = parsePrompt('a.prompt', '{{- name -}} {{{ raw }}} {%- if x -%}');
    assert.deepEqual(
      parsed.variables.map((v) => v.name),
      ['name', 'raw', 'if x'],
    );
  });

  it('never throws on hostile input', () => {
    for (const name of ['a.prompty', 'a.prompt.yml', 'a.json', 'a.prompt.md', 'a.prompt']) {
      for (const text of [
        '---\n',
        '---\n---',
        '{',
        '[1,2',
        'messages: !!js/function x',
        '\uFEFF---\nmodel: 3\n---\n',
        'user:\n',
      ]) {
        assert.doesNotThrow(() => countPrompt(parsePrompt(name, text), o200k), `${name}: ${JSON.stringify(text)}`);
      }
    }
  });
});
