import assert from 'node:assert/strict';
import { linearCostModel, type FindingCostModel } from '../../../src/core/findings/costModel';
import { PrefixCacheAnalyser } from '../../../src/core/findings/prefixCache';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { parsePrompt } from '../../../src/core/prompt/parse';
import type { ChatRole } from '../../../src/core/prompt/types';
import { LINEAR_PARAMS, promptFile, wordTokenizer, words } from './helpers';

// The finding texts and data of the prefix-cache analyser, figured by hand on the linear model of helpers.ts.
const LINEAR = linearCostModel(LINEAR_PARAMS);

function analyser(costModel: FindingCostModel = LINEAR) {
  return new PrefixCacheAnalyser({
    tokenizer: wordTokenizer,
    costModel,
    settings: { ...DEFAULT_FINDING_SETTINGS.cache, minSharedTokens: 1024 },
  });
}

function add(a: PrefixCacheAnalyser, file: string, sections: Array<[ChatRole, string]>) {
  const f = promptFile(sections);
  a.update(file, f.text, f.parsed);
  return f;
}

describe('prefix-cache finding', () => {
  it('names the shared tokens, the other files, warm vs cold TTFT and the saving, at the end of the shared prefix', () => {
    const a = analyser();
    let alpha = 0;
    for (const [file, question] of [
      ['a', 'alpha question'],
      ['b', 'beta question'],
      ['c', 'gamma'],
    ] as const) {
      const f = add(a, file, [
        ['system', words(2000, 's')],
        ['user', question],
      ]);
      if (file === 'a') alpha = f.text.indexOf('alpha');
    }
    // a: 2,004 tokens (2 role tokens, 2,000 system words, 2 user words); shared with b and c: both role tokens and
    // the system words, 2,002; cacheable in steps of 16: 2,000. Cold 100 + 200.4 ms; warm 100 + 0.4 + 20 ms.
    // Saved per call: (2,004 × $2 − (4 × $2 + 2,000 × $0.50)) / 1e6 = $0.003, $3.00 per 1,000.
    const [finding, ...rest] = a.findingsFor('a');
    assert.equal(rest.length, 0);
    assert.deepEqual(finding, {
      code: 'prefix-cache',
      severity: 'information',
      message:
        'Prefix cache: the first 2,002 tokens are shared with 2 other files (2,000 cacheable on test model); ' +
        'warm TTFT 120 ms vs cold 300 ms (1 request at a time, 0 output tokens), saves $3.00 per 1,000 calls; ' +
        'the shared prefix ends here',
      file: 'a',
      range: { start: alpha, end: alpha },
      relatedFiles: [
        { file: 'b', range: { start: alpha, end: alpha }, message: 'shares 2,002 tokens; its shared prefix ends here' },
        { file: 'c', range: { start: alpha, end: alpha }, message: 'shares 2,002 tokens; its shared prefix ends here' },
      ],
      data: {
        sharedTokens: 2002,
        cacheableTokens: 2000,
        groupSharedTokens: 2002,
        coldTtftMs: 300.4,
        warmTtftMs: 120.4,
        savedUsdPer1kCalls: 3,
        files: ['a', 'b', 'c'],
      },
    });
  });

  it('one other file is said in the singular; a target without a price saves "no price" and has no saving in data', () => {
    const free: FindingCostModel = { ...LINEAR, costUsd: () => null };
    const a = analyser(free);
    add(a, 'x', [
      ['system', words(1100, 's')],
      ['user', 'one'],
    ]);
    add(a, 'y', [
      ['system', words(1100, 's')],
      ['user', 'two'],
    ]);
    const finding = a.findingsFor('y').find((f) => f.code === 'prefix-cache');
    assert.ok(finding);
    assert.match(finding.message, /are shared with 1 other file \(1,088 cacheable on test model\)/);
    assert.match(finding.message, /saves no price per 1,000 calls/);
    assert.equal(finding.relatedFiles?.length, 1);
    assert.equal(finding.relatedFiles?.[0]?.file, 'x');
    assert.equal('savedUsdPer1kCalls' in finding.data, false);
    assert.deepEqual(finding.data.files, ['x', 'y']);
  });

  it('each member names the others, built once per group: the same entries in every member’s finding', () => {
    const a = analyser();
    for (const [file, question] of [
      ['a', 'alpha'],
      ['b', 'beta'],
      ['c', 'gamma'],
    ] as const)
      add(a, file, [
        ['system', words(1100, 's')],
        ['user', question],
      ]);
    const related = (file: string) => a.findingsFor(file).find((f) => f.code === 'prefix-cache')?.relatedFiles ?? [];
    const [fromA, fromB, fromC] = [related('a'), related('b'), related('c')];
    assert.deepEqual(
      [fromA, fromB, fromC].map((r) => r.map((x) => x.file)),
      [
        ['b', 'c'],
        ['a', 'c'],
        ['a', 'b'],
      ],
    );
    // b as a and c name it: one object.
    assert.equal(fromA[0], fromC[1]);
    assert.equal(fromB[0], fromC[0]);
    assert.equal(fromA[1], fromB[1]);
    // After an update the group is built again, and so are its entries.
    add(a, 'b', [
      ['system', words(1100, 's')],
      ['user', 'delta'],
    ]);
    assert.notEqual(related('a')[0], fromA[0]);
    assert.deepEqual(related('a')[0], fromA[0]);
  });

  it('a file outside every group has no prefix-cache finding', () => {
    const a = analyser();
    add(a, 'a', [['system', words(2000, 's')]]);
    add(a, 'b', [['system', words(2000, 't')]]);
    assert.deepEqual(a.findingsFor('a'), []);
  });
});

describe('near-miss finding', () => {
  it('points at the differing text in the other file and carries the figures', () => {
    const system = (word: string) => `${words(10, 's')} ${word} ${words(1500, 's', 10)}`;
    const a = analyser();
    add(a, 'a', [
      ['system', system('friendly')],
      ['user', 'one'],
    ]);
    const fb = add(a, 'b', [
      ['system', system('warm')],
      ['user', 'two'],
    ]);
    const warm = fb.text.indexOf('warm');
    const finding = a.findingsFor('a').find((f) => f.code === 'cache-near-miss');
    assert.ok(finding);
    assert.deepEqual(finding.relatedFiles, [
      { file: 'b', range: { start: warm, end: warm + 4 }, message: 'differs here: “warm”' },
    ]);
    assert.deepEqual(finding.data, {
      other: 'b',
      sharedNow: 11,
      sharedWithout: 1511,
      cacheableNow: 0,
      cacheableWithout: 1504,
    });
  });
});

describe('cache-breaker finding', () => {
  it('with nothing dynamic before it: "moving it after them", the TTFT saved and the data behind it', () => {
    const a = analyser();
    const name = `{{${'v'.repeat(36)}}}`; // 40 characters: quoted whole
    const f = add(a, 'a', [
      ['system', `${name}\n${words(1200, 's')}`],
      ['user', 'Q: {{question}}'],
    ]);
    const finding = a.findingsFor('a').find((x) => x.code === 'cache-breaker');
    assert.ok(finding);
    // Static after it: 1,200 words, the user role token and "Q:"; if moved, the role token and those 1,200 words
    // are static before it: 1,201 → 1,200 cacheable in steps of 16. Warm TTFT saved: 1,200 × (0.1 − 0.01) ms.
    assert.equal(
      finding.message,
      `Cache breaker: variable “${name}” changes per request and comes before 1,202 static tokens; moving it after them ` +
        'would make 1,200 tokens cacheable instead of 0 (warm TTFT ≈108 ms faster on test model, 1 request at a time, 0 output tokens)',
    );
    assert.deepEqual(finding.range, { start: f.text.indexOf(name), end: f.text.indexOf(name) + 40 });
    const { ttftSavedMs, ...data } = finding.data;
    assert.ok(Math.abs((ttftSavedMs as number) - 108) < 1e-9, String(ttftSavedMs));
    assert.equal(typeof data.moveToOffset, 'number');
    assert.deepEqual(
      { ...data, moveToOffset: 0 },
      {
        kind: 'variable',
        dynamicBefore: 0,
        staticTokensAfter: 1202,
        moveToOffset: 0,
        cacheableNow: 0,
        cacheableIfMoved: 1200,
      },
    );
  });

  it('figures the TTFT saved on the file’s own prompt tokens', () => {
    // A model that, like the engine, leaves at least one token uncached: on zero prompt tokens it would save nothing.
    const clamped: FindingCostModel = { ...LINEAR, ttftMs: (n, cached) => LINEAR.ttftMs(n, Math.min(cached, n - 1)) };
    const a = analyser(clamped);
    add(a, 'a', [
      ['system', `{{today}}\n${words(1200, 's')}`],
      ['user', 'Q: {{question}}'],
    ]);
    const finding = a.findingsFor('a').find((x) => x.code === 'cache-breaker');
    assert.ok(finding);
    assert.ok(Math.abs((finding.data.ttftSavedMs as number) - 108) < 1e-9, String(finding.data.ttftSavedMs));
  });

  it('a look-alike value, with cache.dynamicHints: an information hint in the same figures', () => {
    const a = new PrefixCacheAnalyser({
      tokenizer: wordTokenizer,
      costModel: LINEAR,
      settings: { ...DEFAULT_FINDING_SETTINGS.cache, minSharedTokens: 1024, dynamicHints: true },
    });
    add(a, 'n', [['system', `Hello Alice Johnson\n${words(1200, 's')}`]]);
    const hint = a.findingsFor('n').find((x) => x.code === 'dynamic-hint');
    assert.ok(hint);
    // Static after the name: the 1,200 words; before it: the role token and "Hello" (2, below the minimum of 16).
    // Moved after them: 1 + 1 + 1,200 = 1,202 static tokens first, 1,200 cacheable in steps of 16; 1,200 × 0.09 ms.
    assert.equal(
      hint.message,
      'Looks like a value you may template later: name “Alice Johnson” is static text now (cacheable), but if it ' +
        'changed per request, it would come before 1,200 static tokens; keep such values after them (1,200 tokens ' +
        'cacheable instead of 0, warm TTFT ≈108 ms faster on test model, 1 request at a time, 0 output tokens)',
    );
  });

  it('counts the dynamic parts before it, and quotes long or multi-line text flattened and cut at 40 characters', () => {
    const a = analyser();
    const name = `{{${'v'.repeat(37)}}}`; // 41 characters: cut to 39 and an ellipsis
    add(a, 'a', [
      ['system', `{{a}} {{b}} ${name}\n${words(1200, 's')}`],
      ['user', 'Q: {{question}}'],
    ]);
    const finding = a.findingsFor('a').find((x) => x.code === 'cache-breaker');
    assert.ok(finding);
    assert.match(
      finding.message,
      new RegExp(
        `^Cache breaker: variable “\\{\\{${'v'.repeat(37)}…” changes per request and comes before 1,202 static tokens; ` +
          'moving it and the 2 dynamic parts before it after them would make',
      ),
    );
    assert.equal(finding.data.dynamicBefore, 2);
    // A block's lines are joined by single spaces before the cut (49 characters here).
    const text = `system:\nHi.\n{% if vip %}\nOffer priority shipping.\n{% endif %}\n${words(1200, 's')}\n`;
    a.update('b.prompt', text, parsePrompt('b.prompt', text));
    assert.match(
      a.findingsFor('b.prompt').find((x) => x.code === 'cache-breaker')?.message ?? '',
      /^Cache breaker: block “\{% if vip %\} Offer priority shipping\. \{…” changes per request/,
    );
  });
});
