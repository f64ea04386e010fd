import assert from 'node:assert/strict';
import { linearCostModel, type FindingCostModel } from '../../../src/core/findings/costModel';
import { analyseRag, detectRegions } from '../../../src/core/findings/rag';
import { RenderMap } from '../../../src/core/findings/request';
import { DEFAULT_FINDING_SETTINGS, type FindingSettings } from '../../../src/core/findings/settings';
import { usdDifference } from '../../../src/core/format';
import { parsePrompt } from '../../../src/core/prompt/parse';
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

function analyse(
  file: { text: string; parsed: ParsedPrompt },
  settings: FindingSettings['rag'] = rag,
  promptTokens?: number,
  costModel: FindingCostModel = model,
) {
  return analyseRag({
    file: 'f.prompt',
    text: file.text,
    parsed: file.parsed,
    // One role token per message, as the request builder counts them.
    promptTokens: promptTokens ?? file.parsed.messages.reduce((n, m) => n + 1 + wordTokenizer.count(m.rendered), 0),
    tokenizer: wordTokenizer,
    costModel,
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

// Edges of retrieved-context detection and of the budget and duplicate findings: thresholds met exactly,
// regions that touch, nest or cross a message's end.
const edge: FindingCostModel = { ...model, label: 'edge model', contextWindow: 1000 };
const slices = (f: { text: string }, regions: Array<{ kind: string; range: { start: number; end: number } }>) =>
  regions.map((r) => [r.kind, f.text.slice(r.range.start, r.range.end)]);

describe('retrieved-context regions: edges', () => {
  it('a block or a pattern match does not reach past its message', () => {
    const f = promptFile([
      ['system', '<documents>a b'],
      ['user', 'c</documents> BEGIN x'],
      ['assistant', 'y END'],
    ]);
    assert.deepEqual(
      detectRegions(f.parsed, f.text, { ...rag, pattern: 'BEGIN[\\s\\S]*' }).map((r) => r.marker),
      ['/BEGIN[\\s\\S]*/'],
    );
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, { ...rag, pattern: 'BEGIN[\\s\\S]*' })), [
      ['pattern', 'BEGIN x'],
    ]);
  });

  it('finds blocks and headings in whichever message has them, next to messages with no markup', () => {
    const f = promptFile([
      ['system', 'plain words only'],
      ['user', '<documents>a</documents>'],
      ['assistant', 'no markup'],
      ['user', '## Context\nb c'],
    ]);
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, rag)), [
      ['xml', '<documents>a</documents>'],
      ['heading', '## Context\nb c'],
    ]);
  });

  it('a closing tag with nothing open is no region; tags match whatever their case', () => {
    const f = promptFile([['user', '</documents> <Documents>a</DOCUMENTS> z']]);
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, rag)), [['xml', '<Documents>a</DOCUMENTS>']]);
  });

  it('tag names are matched literally, dots included', () => {
    const f = promptFile([['user', '<search.results>x</search.results> <searchXresults>y</searchXresults>']]);
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, { ...rag, tags: ['search.results'] })), [
      ['xml', '<search.results>x</search.results>'],
    ]);
  });

  it('no tags or headings configured: none found', () => {
    // `<>…</>` would be a block of the empty tag, and `# x` a section of the empty heading.
    const f = promptFile([['user', '<documents>a</documents>\n## Context\nb <>c</> d\n# x\ne']]);
    assert.deepEqual(detectRegions(f.parsed, f.text, { ...rag, tags: [], headings: [] }), []);
  });

  it('a heading section ends at its message’s end and at a line-start heading only; its marker is trimmed', () => {
    const f = promptFile([
      ['system', '## Context  \nuse C# here\nmore'],
      ['user', '# Other\nq'],
    ]);
    const regions = detectRegions(f.parsed, f.text, rag);
    assert.deepEqual(slices(f, regions), [['heading', '## Context  \nuse C# here\nmore']]);
    assert.equal(regions[0]?.marker, '## Context');
  });

  it('instruction files retrieve nothing: only the user pattern finds regions there', () => {
    const text = '<documents>a</documents>\n## Context\nb {{context}} MARK';
    const parsed = parsePrompt('x.instructions.md', text);
    assert.deepEqual(detectRegions(parsed, text, rag), []);
    assert.deepEqual(
      detectRegions(parsed, text, { ...rag, pattern: 'MARK' }).map((r) => r.kind),
      ['pattern'],
    );
  });

  it('slots match case-insensitively; touching regions are both kept, an enclosing one wins', () => {
    const f = promptFile([['user', '{{Context}}<documents>d</documents>\n## Sources\n<source>s</source>\n']], {
      Context: 'retrieved text',
    });
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, rag)), [
      ['slot', '{{Context}}'],
      ['xml', '<documents>d</documents>'],
      ['heading', '## Sources\n<source>s</source>\n'],
    ]);
  });

  it('of two regions starting together the longer is kept', () => {
    const f = promptFile([['user', '{{context}} and more here']], { context: 'c' });
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, { ...rag, pattern: '\\{\\{context\\}\\} and more' })), [
      ['pattern', '{{context}} and more'],
    ]);
  });

  it('a pattern that can match empty text finds only its non-empty matches', () => {
    const f = promptFile([['user', 'a 12 b 345']]);
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, { ...rag, pattern: '\\d*' })), [
      ['pattern', '12'],
      ['pattern', '345'],
    ]);
  });
});

describe('budget findings: thresholds met exactly', () => {
  // A region of `n` tokens: `<context>` + n-2 words + `</context>`, one token each.
  const region = (n: number) => `<context> ${words(n - 2)} </context>`;

  it('maxTokens: over it warns, at it does not', () => {
    const at = promptFile([['user', region(100)]]);
    const settings = { ...rag, maxTokens: 100, shareMinTokens: 10_000 };
    assert.equal(analyse(at, settings).findings.length, 0);
    assert.equal(analyse(at, { ...settings, maxTokens: 99 }).findings.length, 1);
  });

  it('share: from shareMinTokens up, over maxShare and not at it', () => {
    // 100-token region in a 200-token request: share 0.5.
    const f = promptFile([['user', region(100)]]);
    const settings = { ...rag, maxTokens: 10_000, shareMinTokens: 100, maxShare: 0.5 };
    assert.equal(analyse(f, settings, 200).findings.length, 0, 'share equal to maxShare');
    const over = analyse(f, { ...settings, maxShare: 0.49 }, 200).findings;
    assert.deepEqual(
      over.map((x) => x.code),
      ['rag-budget'],
    );
    assert.deepEqual(over[0]?.data, {
      marker: '<context>',
      kind: 'xml',
      tokens: 100,
      share: 0.5,
      addedTtftMs: model.ttftMs(200, 0) - model.ttftMs(100, 0),
      addedCostUsd: usdDifference(model.costUsd(200, 0), model.costUsd(100, 0)),
      maxTokens: 10_000,
      maxShare: 0.49,
      shareMinTokens: 100,
    });
    assert.equal(analyse(f, { ...settings, maxShare: 0.49, shareMinTokens: 101 }, 200).findings.length, 0);
  });

  it('an unpriced target leaves the cost out of the data; no tokens, no share', () => {
    const f = promptFile([['user', region(100)]]);
    const settings = { ...rag, maxTokens: 50 };
    const finding = analyse(f, settings, 200, { ...edge, costUsd: () => null }).findings[0];
    assert.equal(finding?.code, 'rag-budget');
    assert.equal('addedCostUsd' in (finding?.data ?? {}), false);
    assert.equal(analyse(f, settings, 0).regions[0]?.share, 0);
  });

  it('context window: over it is an error on the first line, at it nothing', () => {
    const f = promptFile([['user', 'short']]);
    assert.equal(analyse(f, rag, 1000, edge).findings.length, 0);
    const [error] = analyse(f, rag, 1001, edge).findings;
    assert.deepEqual(error, {
      code: 'context-window',
      severity: 'error',
      message: 'Prompt is 1,001 tokens; the context window of edge model is 1,000 (1 over)',
      file: 'f.prompt',
      range: { start: 0, end: 'user:'.length },
      data: { tokens: 1001, contextWindow: 1000 },
    });
    const oneLine = { text: 'one line', parsed: { ...f.parsed, messages: [] } };
    assert.deepEqual(analyse(oneLine, rag, 1001, edge).findings[0]?.range, { start: 0, end: 'one line'.length });
    const { contextWindow: _omit, ...noWindow } = edge;
    assert.equal(analyse(f, rag, 10 ** 9, noWindow).findings.length, 0);
  });
});

describe('duplicate chunks: how a region is cut', () => {
  const dups = (f: ReturnType<typeof promptFile>, settings: FindingSettings['rag'] = rag) =>
    analyse(f, settings).findings.filter((x) => x.code === 'rag-duplicate');
  const doc = (seed: string, n = 30) => words(n, seed);

  it('exactly two child blocks are the chunks, touching ones too', () => {
    const f = promptFile([
      ['user', `<documents><document>${doc('a')}</document><document>${doc('a')}</document></documents>`],
    ]);
    const found = dups(f);
    assert.equal(found.length, 1);
    assert.equal(found[0]?.data.tokensWasted, 30);
    assert.deepEqual(found[0]?.relatedFiles, [
      {
        file: 'f.prompt',
        range: { start: f.text.indexOf('<document>a0'), end: f.text.indexOf('</document><document>') + 11 },
        message: 'first occurrence',
      },
    ]);
  });

  it('a block nested in a child is part of it, not a chunk of its own', () => {
    const child = `<document><source>${doc('s', 25)}</source> ${doc('a')}</document>`;
    const f = promptFile([['user', `<documents>${child}\n${child}\n<document>${doc('b')}</document></documents>`]]);
    const found = dups(f);
    assert.deepEqual(
      found.map((d) => d.data.tokensWasted),
      [55],
    );
  });

  it('one child block: paragraphs, split at blank lines (spaces allowed) and --- rules, not at a single dash', () => {
    const p = doc('p');
    const body = `<documents>\n\n${p}\n  \n${p}\n---\n${doc('q')}\n-\n${p}\n--- \n${p}\n\n<document>x</document></documents>`;
    const found = dups(promptFile([['user', body]]));
    assert.deepEqual(
      found.map((d) => [d.message, d.data.tokensWasted]),
      [
        ['Duplicate chunk: repeats the chunk at line 4; 30 tokens wasted', 30],
        ['Duplicate chunk: repeats the chunk at line 4; 30 tokens wasted', 30],
      ],
    );
  });

  it('a chunk of exactly minChunkTokens counts', () => {
    const body = `## Context\n${doc('p', 20)}\n\n${doc('p', 20)}`;
    assert.equal(dups(promptFile([['user', body]])).length, 1);
    assert.equal(dups(promptFile([['user', body]]), { ...rag, minChunkTokens: 21 }).length, 0);
  });

  it('duplicates inside a slot’s sample value point at the slot', () => {
    const f = promptFile([['user', 'Docs: {{context}} end']], { context: `${doc('c')}\n\n${doc('c')}` });
    const [d] = dups(f);
    assert.deepEqual(d?.range, { start: f.text.indexOf('{{context}}'), end: f.text.indexOf(' end') });
  });
});
