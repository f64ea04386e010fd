import assert from 'node:assert/strict';
import { linearCostModel, type FindingCostModel } from '../../../src/core/findings/costModel';
import { analyseRag, detectRegions } from '../../../src/core/findings/rag';
import { DEFAULT_FINDING_SETTINGS, type FindingSettings } from '../../../src/core/findings/settings';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { promptFile, wordTokenizer, words } from './helpers';

// Edges of retrieved-context detection and of the budget and duplicate findings: thresholds met exactly,
// regions that touch, nest or cross a message's end.
const rag = DEFAULT_FINDING_SETTINGS.rag;
const model = linearCostModel({
  label: 'm',
  contextWindow: 1000,
  cacheRule: { minTokens: 16, granularity: 16 },
  baseMs: 40,
  msPerToken: 0.1,
  msPerCachedToken: 0,
  usdPerMillionInput: 2,
  usdPerMillionCached: 0.2,
});
const unpriced: FindingCostModel = { ...model, costUsd: () => null };

type File = ReturnType<typeof promptFile>;
const slices = (f: { text: string }, regions: Array<{ kind: string; range: { start: number; end: number } }>) =>
  regions.map((r) => [r.kind, f.text.slice(r.range.start, r.range.end)]);

function analyse(f: File, settings: FindingSettings['rag'] = rag, promptTokens?: number, m = model) {
  const n = promptTokens ?? f.parsed.messages.reduce((k, msg) => k + 1 + wordTokenizer.count(msg.rendered), 0);
  return analyseRag({
    file: 'f.prompt',
    text: f.text,
    parsed: f.parsed,
    promptTokens: n,
    tokenizer: wordTokenizer,
    costModel: m,
    settings,
  });
}

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

  it('a closing tag with nothing open is no region; tags match whatever their case', () => {
    const f = promptFile([['user', '</documents> <Documents>a</DOCUMENTS> z']]);
    assert.deepEqual(slices(f, detectRegions(f.parsed, f.text, rag)), [['xml', '<Documents>a</DOCUMENTS>']]);
  });

  it('no tags or headings configured: none found', () => {
    const f = promptFile([['user', '<documents>a</documents>\n## Context\nb']]);
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
      addedTtftMs: 10,
      addedCostUsd: 200e-6,
      maxTokens: 10_000,
      maxShare: 0.49,
      shareMinTokens: 100,
    });
    assert.equal(analyse(f, { ...settings, maxShare: 0.49, shareMinTokens: 101 }, 200).findings.length, 0);
  });

  it('an unpriced target leaves the cost out of the data; no tokens, no share', () => {
    const f = promptFile([['user', region(100)]]);
    const settings = { ...rag, maxTokens: 50 };
    const finding = analyse(f, settings, 200, unpriced).findings[0];
    assert.equal(finding?.code, 'rag-budget');
    assert.equal('addedCostUsd' in (finding?.data ?? {}), false);
    assert.equal(analyse(f, settings, 0).regions[0]?.share, 0);
  });

  it('context window: over it is an error on the first line, at it nothing', () => {
    const f = promptFile([['user', 'short']]);
    assert.equal(analyse(f, rag, 1000).findings.length, 0);
    const [error] = analyse(f, rag, 1001).findings;
    assert.deepEqual(error, {
      code: 'context-window',
      severity: 'error',
      message: 'Prompt is 1,001 tokens; the context window of m is 1,000 (1 over)',
      file: 'f.prompt',
      range: { start: 0, end: 'user:'.length },
      data: { tokens: 1001, contextWindow: 1000 },
    });
    const oneLine = { text: 'one line', parsed: { ...f.parsed, messages: [] } };
    assert.deepEqual(analyse(oneLine, rag, 1001).findings[0]?.range, { start: 0, end: 'one line'.length });
    const { contextWindow: _omit, ...noWindow } = model;
    assert.equal(analyse(f, rag, 10 ** 9, noWindow).findings.length, 0);
  });
});

describe('duplicate chunks: how a region is cut', () => {
  const dups = (f: File, settings: FindingSettings['rag'] = rag) =>
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
