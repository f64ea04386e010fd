import assert from 'node:assert/strict';
import { describeTargetChange } from '../../../src/core/analysis/targetChange';
import { estimateTarget } from '../../../src/core/analysis/targetEstimates';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import type { PromptCount } from '../../../src/core/count';
import type { Finding, FindingCode } from '../../../src/core/findings/types';
import { formatMs } from '../../../src/core/format';
import { cacheRuleOf } from '../../../src/core/estimate/cacheRule';

const tables = loadTables().tables;
const slo = { ttftMs: 500, tpotMs: 30, concurrency: 8, outputTokens: 256 };
const count = (inputTokens: number): PromptCount => ({
  tokenizer: 'o200k_base',
  exact: true,
  contentTokens: inputTokens - 3,
  inputTokens,
  messages: [],
  variables: [],
  errors: [],
});
const on = (id: string, tokens: number) =>
  estimateTarget({ target: resolveTarget(parseTargetId(id), tables), count: count(tokens), prefixTokens: 2048, slo });
const rule = (id: string) => cacheRuleOf(resolveTarget(parseTargetId(id), tables));
const finding = (code: FindingCode, start: number, message: string = code): Finding => ({
  code,
  severity: 'warning',
  message,
  file: 'a.prompt',
  range: { start, end: start + 5 },
  data: {},
});

describe('what changes when the primary target changes', () => {
  it('names both cold TTFTs and costs, keeps findings that still apply (their numbers may differ)', () => {
    const before = on('openai/gpt-4o', 5788);
    const after = on('anthropic/claude-sonnet-4.6', 5800);
    const change = describeTargetChange(
      {
        target: before,
        findings: [finding('rag-budget', 10, 'adds 1.1 s'), finding('prefix-cache', 0)],
        cacheRule: rule('openai/gpt-4o'),
      },
      {
        target: after,
        findings: [finding('rag-budget', 10, 'adds 900 ms'), finding('prefix-cache', 0)],
        cacheRule: rule('anthropic/claude-sonnet-4.6'),
      },
    );
    assert.equal(change.kept.length, 2);
    assert.equal(change.removed.length, 0);
    assert.ok(
      change.text.includes(`TTFT ${formatMs(before.cold.ttftMs.p50)} → ${formatMs(after.cold.ttftMs.p50)} cold`),
      change.text,
    );
    assert.match(change.text, /Findings kept: rag-budget, prefix-cache\./);
    assert.match(change.text, /5,788 → 5,800 tokens/);
  });

  it('says why cache findings go on a target without prompt caching', () => {
    const after = on('groq/llama-3.1-8b-instant', 5788);
    const change = describeTargetChange(
      {
        target: on('openai/gpt-4o', 5788),
        findings: [finding('rag-budget', 10), finding('prefix-cache', 0), finding('cache-breaker', 40)],
        cacheRule: rule('openai/gpt-4o'),
      },
      {
        target: after,
        findings: [finding('rag-budget', 10), finding('context-window', 0)],
        cacheRule: rule('groq/llama-3.1-8b-instant'),
      },
    );
    assert.deepEqual(
      change.removed.map((r) => r.finding.code),
      ['prefix-cache', 'cache-breaker'],
    );
    assert.match(
      change.text,
      /Removed: prefix-cache, cache-breaker, because groq\/llama-3\.1-8b-instant has no prompt caching\./,
    );
    assert.match(change.text, /New: context-window\./);
    assert.match(change.text, /^Primary target now groq\/llama-3\.1-8b-instant/);
  });

  it('without a previous analysis it states the new figures only', () => {
    const after = on('openai/gpt-4o', 100);
    const change = describeTargetChange(undefined, { target: after, findings: [], cacheRule: rule('openai/gpt-4o') });
    assert.ok(change.text.includes(`TTFT ${formatMs(after.cold.ttftMs.p50)} cold`), change.text);
    assert.doesNotMatch(change.text, /→/);
  });
});
