import assert from 'node:assert/strict';
import { templateAdded, countBasis } from '../../../src/core/chat/templateText';
import { countPrompt, promptTokenCounter } from '../../../src/core/count';
import { countKey } from '../../../src/core/countKey';
import { loadTables, parseTargetId, resolveTarget, targetCountKey } from '../../../src/core/estimate';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';

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
