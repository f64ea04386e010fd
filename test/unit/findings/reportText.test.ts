import assert from 'node:assert/strict';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { buildReport } from '../../../src/core/findings/report';
import { cacheRuleText, formatReport, summarySentence } from '../../../src/core/findings/reportText';
import { reportMarkdown } from '../../../src/core/findings/reportMarkdown';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { findingTarget } from '../../../src/core/findings/targets';
import { getTokenizer } from '../../../src/core/tokenize/registry';

/** #15 item 4: the report says what it assumes, in words — no internal sentinel, no "1 warnings". */
describe('workspace report wording', () => {
  it('counts with their nouns: singular for exactly one', () => {
    assert.equal(
      summarySentence({ files: 1, error: 1, warning: 1, information: 1 }),
      '1 prompt file · 1 error · 1 warning · 1 information',
    );
    assert.equal(
      summarySentence({ files: 2, error: 0, warning: 3, information: 0 }),
      '2 prompt files · 0 errors · 3 warnings · 0 information',
    );
  });

  it('a target without prompt caching says so instead of printing a sentinel minimum', () => {
    const { tables } = loadTables();
    const groq = findingTarget(resolveTarget(parseTargetId('groq/llama-3.3-70b-versatile'), tables), {
      concurrency: 8,
      outputTokens: 256,
    });
    assert.equal(groq.model.cacheRule, undefined);
    const inputs = [
      { path: 'a.prompt', text: 'system:\nBe brief.\nuser:\nHi\n' },
      { path: 'b.prompt', text: 'system:\nBe brief.\nuser:\nHello\n' },
    ];
    const report = buildReport(inputs, {
      tokenizer: getTokenizer(groq.tokenizer),
      costModel: groq.model,
      settings: DEFAULT_FINDING_SETTINGS,
    });
    assert.equal(report.target.cacheRule, null);
    assert.equal(cacheRuleText(report.target.cacheRule), 'no prefix caching');
    for (const text of [reportMarkdown(report, (f, l) => `${f}#L${l}`), formatReport(report)]) {
      assert.ok(text.includes('no prefix caching'), text);
      assert.doesNotMatch(text, /9,007,199,254,740,991|9007199254740991|Infinity/);
      assert.ok(text.includes('8 concurrent requests, 256 output tokens'), 'the scenario is stated');
    }
    const openai = findingTarget(resolveTarget(parseTargetId('openai/gpt-4o'), tables), {
      concurrency: 1,
      outputTokens: 256,
    });
    assert.equal(cacheRuleText(openai.model.cacheRule ?? null), 'cache: ≥ 1,024 tokens in steps of 128');
  });
});
