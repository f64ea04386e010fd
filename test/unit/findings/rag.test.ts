import assert from 'node:assert/strict';
import { linearCostModel } from '../../../src/core/findings/costModel';
import { analyseRag, detectRegions } from '../../../src/core/findings/rag';
import { RenderMap } from '../../../src/core/findings/request';
import { DEFAULT_FINDING_SETTINGS, type FindingSettings } from '../../../src/core/findings/settings';
import type { ParsedPrompt } from '../../../src/core/prompt/types';
import { promptFile, wordTokenizer, words } from './helpers';

const model = linearCostModel({
  label: 'llama-3.1-70b · 4×h100-sxm',
  contextWindow: 20_000,
  cacheRule: { minTokens: 16, granularity: 16 },
  baseMs: 40,
  msPerToken: 0.15,
  msPerCachedToken: 0,
  usdPerMillionInput: 3,
  usdPerMillionCached: 0.3,
});
const rag = DEFAULT_FINDING_SETTINGS.rag;

function analyse(file: ReturnType<typeof promptFile>, settings: FindingSettings['rag'] = rag) {
  // One role token per message, as the request builder counts them.
  const promptTokens = file.parsed.messages.reduce((n, m) => n + 1 + wordTokenizer.count(m.rendered), 0);
  return analyseRag({
    file: 'f.prompt',
    text: file.text,
    parsed: file.parsed,
    promptTokens,
    tokenizer: wordTokenizer,
    costModel: model,
    settings,
  });
}

describe('RAG regions', () => {
  it('finds XML-like blocks from the tag list, outermost only', () => {
    const f = promptFile([
      [
        'user',
        `Answer.\n<documents>\n<document>${words(5)}</document>\n<document>${words(5, 'v')}</document>\n</documents>\n<notes>${words(3)}</notes>`,
      ],
    ]);
    const regions = detectRegions(f.parsed, f.text, rag);
    assert.deepEqual(
      regions.map((r) => [r.kind, r.marker]),
      [['xml', '<documents>']],
    );
    const r = regions[0]!;
    assert.equal(f.text.slice(r.range.start, r.range.end).startsWith('<documents>'), true);
    assert.equal(f.text.slice(r.range.start, r.range.end).endsWith('</documents>'), true);
  });

  it('respects nesting of the same tag and skips unclosed tags', () => {
    const f = promptFile([['user', '<context>a <context>b</context> c</context> tail <sources> never closed']]);
    const [r, ...rest] = detectRegions(f.parsed, f.text, rag);
    assert.equal(rest.length, 0);
    assert.equal(f.text.slice(r!.range.start, r!.range.end), '<context>a <context>b</context> c</context>');
  });

  it('finds Markdown sections by heading, up to the next heading of the same level', () => {
    const f = promptFile([
      ['user', `# Task\nSummarise.\n## Retrieved passages\n${words(4)}\n### Passage 2\n${words(3)}\n## Question\nWhy?`],
    ]);
    const [r, ...rest] = detectRegions(f.parsed, f.text, rag);
    assert.equal(rest.length, 0);
    assert.equal(r!.kind, 'heading');
    assert.equal(r!.marker, '## Retrieved passages');
    assert.equal(
      f.text.slice(r!.range.start, r!.range.end),
      `## Retrieved passages\n${words(4)}\n### Passage 2\n${words(3)}\n`,
    );
  });

  it('sizes a {{context}} slot from its sample value; unfilled slots and other variables are not regions', () => {
    const f = promptFile([['user', 'Docs: {{context}}\nQ: {{question}} {{documents}}']], {
      context: words(300),
      question: 'why',
    });
    const result = analyse(f);
    assert.deepEqual(
      result.regions.map((r) => [r.kind, r.marker, r.tokens]),
      [['slot', '{{context}}', 300]],
    );
  });

  it('adds every match of the user pattern', () => {
    const f = promptFile([['user', `BEGIN RAG ${words(3)} END RAG and BEGIN RAG x END RAG`]]);
    const regions = detectRegions(f.parsed, f.text, { ...rag, pattern: 'BEGIN RAG[\\s\\S]*?END RAG' });
    assert.deepEqual(
      regions.map((r) => [r.kind, f.text.slice(r.range.start, r.range.end)]),
      [
        ['pattern', `BEGIN RAG ${words(3)} END RAG`],
        ['pattern', 'BEGIN RAG x END RAG'],
      ],
    );
  });
});

describe('RAG budget findings', () => {
  it('warns over maxTokens with the numbers in the documented wording', () => {
    // 12,430 tokens: the two tag words plus 12,428 words; 15,936 request tokens in all → 78%.
    const region = `<context>\n${words(12_428)}\n</context>`;
    const f = promptFile([['user', `${region}\n${words(15_936 - 1 - 12_430, 'q')}`]]);
    const result = analyse(f);
    assert.equal(result.regions[0]!.tokens, 12_430);
    const warning = result.findings.find((x) => x.code === 'rag-budget');
    assert.equal(warning?.severity, 'warning');
    assert.equal(
      warning?.message,
      'Retrieved context: 12,430 tokens (78% of the prompt) adds ≈1.9 s to the cold TTFT and $0.037/call on llama-3.1-70b · 4×h100-sxm (1 request at a time, 0 output tokens); budget 4,000',
    );
    assert.deepEqual(warning?.range, result.regions[0]!.range);
  });

  it('warns over maxShare even under maxTokens from shareMinTokens up, and stays quiet under both', () => {
    const big = analyse(promptFile([['user', `<context>\n${words(1198)}\n</context> ${words(99, 'q')}`]]));
    const w = big.findings.find((x) => x.code === 'rag-budget');
    assert.equal(
      w?.message,
      'Retrieved context: 1,200 tokens (92% of the prompt) adds ≈180 ms to the cold TTFT and $0.0036/call on llama-3.1-70b · 4×h100-sxm (1 request at a time, 0 output tokens); budget 60% of the prompt for regions of 1,000+ tokens',
    );
    const small = analyse(promptFile([['user', `<context>${words(298)}</context> ${words(500, 'q')}`]]));
    assert.equal(small.findings.filter((x) => x.code === 'rag-budget').length, 0);
    const raised = analyse(promptFile([['user', `<context>\n${words(1198)}\n</context> ${words(99, 'q')}`]]), {
      ...rag,
      maxShare: 0.95,
    });
    assert.equal(raised.findings.filter((x) => x.code === 'rag-budget').length, 0);
  });

  it('a large share of a small prompt is not a finding below shareMinTokens (both thresholds are settings)', () => {
    // 498 tokens are 94% of this prompt, yet add a few milliseconds: the "Context" sections.
    const tiny = promptFile([['user', `<context>\n${words(496)}\n</context> ${words(30, 'q')}`]]);
    assert.equal(analyse(tiny).findings.filter((x) => x.code === 'rag-budget').length, 0);
    const lowered = analyse(tiny, { ...rag, shareMinTokens: 400 }).findings.find((x) => x.code === 'rag-budget');
    assert.match(
      lowered?.message ?? '',
      /^Retrieved context: 498 tokens \(94% of the prompt\).*for regions of 400\+ tokens$/,
    );
    assert.equal(lowered?.data.shareMinTokens, 400);
  });

  it('is an error when the whole prompt exceeds the context window', () => {
    const result = analyse(promptFile([['user', words(20_500)]]));
    const error = result.findings.find((x) => x.code === 'context-window');
    assert.equal(error?.severity, 'error');
    assert.equal(
      error?.message,
      'Prompt is 20,501 tokens; the context window of llama-3.1-70b · 4×h100-sxm is 20,000 (501 over)',
    );
    assert.equal(analyse(promptFile([['user', words(19_000)]])).findings.length, 0);
  });
});

describe('duplicate chunks', () => {
  const doc = (seed: string, n = 60) => words(n, seed);

  it('reports an exact duplicate (after normalising case and spacing) with the tokens wasted', () => {
    const body = `<documents>\n<document>${doc('a')}</document>\n<document>${doc('b')}</document>\n<document>  ${doc('A').toUpperCase()}  </document>\n</documents>`;
    const f = promptFile([['user', body]]);
    const dups = analyse(f).findings.filter((x) => x.code === 'rag-duplicate');
    assert.equal(dups.length, 1);
    assert.equal(dups[0]!.severity, 'information');
    assert.equal(dups[0]!.message, 'Duplicate chunk: repeats the chunk at line 3; 62 tokens wasted');
    assert.equal(f.text.slice(dups[0]!.range.start, dups[0]!.range.end).startsWith('<document>  A0'), true);
    assert.equal(dups[0]!.relatedFiles?.[0]?.range.start, f.text.indexOf('<document>a0'));
  });

  it('reports near-duplicates by shingle similarity and ignores distinct or tiny chunks', () => {
    const original = doc('a');
    const edited = original.replace('a30', 'changed');
    const body = `<documents>\n<document>${original}</document>\n<document>${doc('b')}</document>\n<document>${edited}</document>\n<document>x y</document>\n<document>x y</document>\n</documents>`;
    const dups = analyse(promptFile([['user', body]])).findings.filter((x) => x.code === 'rag-duplicate');
    assert.equal(dups.length, 1);
    assert.match(
      dups[0]!.message,
      /^Near-duplicate chunk: 90% similar to the chunk at line 3; up to 60 tokens wasted$/,
    );
  });

  it('splits a region without child blocks into paragraphs', () => {
    const body = `## Context\n${doc('p')}\n\n${doc('q')}\n\n${doc('p')}`;
    const dups = analyse(promptFile([['user', body]])).findings.filter((x) => x.code === 'rag-duplicate');
    assert.deepEqual(
      dups.map((d) => d.data.tokensWasted),
      [60],
    );
  });
});

describe('rendered offsets', () => {
  it('maps offsets through filled variables, dotted names included', () => {
    const text = 'user:\nHi {{ user.name }}, see {{context}} now';
    const start = 6;
    const body = text.slice(start);
    const rendered = 'Hi Ada Lovelace, see DOCS now';
    const parsed: ParsedPrompt = {
      format: 'plain',
      engine: 'generic',
      messages: [{ role: 'user', text: body, rendered, range: { start, end: text.length } }],
      variables: [
        { name: 'user.name', range: { start: text.indexOf('{{ user'), end: text.indexOf('}},') + 2 }, filled: true },
        { name: 'context', range: { start: text.indexOf('{{context'), end: text.indexOf('}} now') + 2 }, filled: true },
      ],
      settings: { sample: { user: { name: 'Ada Lovelace' }, context: 'DOCS' } },
      errors: [],
    };
    const map = new RenderMap(parsed.messages[0]!, parsed, text);
    assert.equal(map.exact, true);
    assert.equal(map.toSource(rendered.indexOf('see')), text.indexOf('see'));
    assert.equal(map.toSource(rendered.indexOf('Lovelace')), text.indexOf('{{ user'));
    assert.equal(map.toRendered(text.indexOf('now')), rendered.indexOf('now'));
    assert.equal(map.renderedSlice({ start: text.indexOf('see'), end: text.length }), 'see DOCS now');
  });
});
