import assert from 'node:assert/strict';
import type { TokenCorrection } from '../../../src/core/calibrate/tokenCorrection';
import { linearCostModel, type LinearCostParams } from '../../../src/core/findings/costModel';
import {
  buildReport,
  hasFindingsAtOrAbove,
  type LocatedRange,
  type PromptReport,
} from '../../../src/core/findings/report';
import { lineColumn } from '../../../src/core/findings/request';
import { DEFAULT_FINDING_SETTINGS, type FindingSettings } from '../../../src/core/findings/settings';
import type { Tokenizer } from '../../../src/core/tokenize/types';
import { LINEAR_PARAMS, wordTokenizer, words } from './helpers';

// buildReport on a small workspace. Counts are known by construction: one token per word, plus cl100k_base's
// chat overhead (4 per message + 3: 11 for two messages). TTFT = 100 ms + 0.1 ms per token, $2 per million.
const TOKENIZER: Tokenizer = { ...wordTokenizer, id: 'cl100k_base' };
const PARAMS: LinearCostParams = { ...LINEAR_PARAMS, contextWindow: 3000 };
const SETTINGS: FindingSettings = {
  ...DEFAULT_FINDING_SETTINGS,
  cache: { ...DEFAULT_FINDING_SETTINGS.cache, minSharedTokens: 1024 },
};
const SYSTEM = words(1100, 's');

/** Given in no particular order: the report sorts by path. */
const WORKSPACE = [
  { path: 'c.prompt', text: `system:\nToday is {{today}}\n${words(1200, 'c')}\nuser:\nQ: {{question}}\n` },
  { path: 'b.prompt', text: `system:\n${SYSTEM}\nuser:\nbeta question\n` },
  { path: 'a.prompt', text: `system:\n${SYSTEM}\nuser:\nalpha question\n` },
  { path: 'd.prompt', text: `system:\nRead this.\n<context>\n${words(3100, 'd')}\n</context>\nuser:\nhi\n` },
];

function build(inputs = WORKSPACE, params: Partial<LinearCostParams> = {}, settings = SETTINGS, locations?: string[]) {
  return buildReport(inputs, {
    tokenizer: TOKENIZER,
    costModel: linearCostModel({ ...PARAMS, ...params }),
    settings,
    ...(locations ? { instructionLocations: locations } : {}),
  });
}

const position = (r: LocatedRange) => [r.startPosition.line, r.startPosition.column];

describe('workspace report (buildReport)', () => {
  it('one row per file, sorted by path, with its tokens, cold TTFT and cost', () => {
    const report = build();
    // a, b: 1,100 system words + 2 user words + 11; c: 2 + 1 + 1,200 + 2 + 11; d: 2 + 3,102 + 1 + 11.
    assert.deepEqual(
      report.files.map((f) => [f.file, f.tokens]),
      [
        ['a.prompt', 1113],
        ['b.prompt', 1113],
        ['c.prompt', 1216],
        ['d.prompt', 3116],
      ],
    );
    for (const f of report.files) {
      close(f.ttftMs, 100 + 0.1 * f.tokens);
      close(f.costUsd!, 2e-6 * f.tokens);
    }
    const [region, ...more] = report.files[3]!.regions;
    assert.equal(more.length, 0);
    assert.equal(region!.kind, 'xml');
    assert.equal(region!.marker, '<context>');
    assert.equal(region!.tokens, 3102);
    assert.equal(region!.share, 3102 / 3116);
    close(region!.addedTtftMs, 310.2);
    assert.deepEqual(position(region!.range), [3, 1]);
    assert.deepEqual(
      { ...report.target, cacheRule: report.target.cacheRule },
      {
        label: 'test model',
        serving: 'linear test model',
        scenario: '1 request at a time, 0 output tokens',
        tokenizer: 'cl100k_base',
        contextWindow: 3000,
        cacheRule: { minTokens: 16, granularity: 16 },
      },
    );
    assert.equal(build(WORKSPACE, { contextWindow: undefined }).target.contextWindow, null);
  });

  it('all findings, each located by line and column in its own file, and the summary counts them by severity', () => {
    const report = build();
    assert.deepEqual(
      report.findings.map((f) => [f.code, f.severity, f.file, ...position(f.range)]),
      [
        ['prefix-cache', 'information', 'a.prompt', 4, 1],
        ['prefix-cache', 'information', 'b.prompt', 4, 1],
        ['cache-breaker', 'warning', 'c.prompt', 2, 10],
        ['context-window', 'error', 'd.prompt', 1, 1],
        ['rag-budget', 'warning', 'd.prompt', 3, 1],
      ],
    );
    const texts = new Map(WORKSPACE.map((f) => [f.path, f.text]));
    for (const f of report.findings) {
      assert.deepEqual(f.range.endPosition, lineColumn(texts.get(f.file)!, f.range.end), f.code);
      for (const r of f.relatedFiles)
        assert.deepEqual(r.range.startPosition, lineColumn(texts.get(r.file)!, r.range.start));
    }
    assert.deepEqual(
      report.findings[0]!.relatedFiles.map((r) => [r.file, ...position(r.range), r.message]),
      [['b.prompt', 4, 1, 'shares 1,111 tokens; its shared prefix ends here']],
    );
    assert.deepEqual(report.summary, { files: 4, error: 1, warning: 2, information: 2 });
  });

  it('cache groups with each member located where its shared prefix ends', () => {
    const [group, ...rest] = build().cacheGroups;
    assert.equal(rest.length, 0);
    assert.equal(group!.sharedTokens, 1111);
    assert.equal(group!.cacheableTokens, 1104);
    assert.deepEqual(
      group!.members.map((m) => [m.file, ...position(m.prefixEnd), m.prefixEnd.start === m.prefixEnd.end]),
      [
        ['a.prompt', 4, 1, true],
        ['b.prompt', 4, 1, true],
      ],
    );
  });

  it('the file’s pragmas and the disabled codes apply, also to the always-on instructions over budget', () => {
    const tight = { ...SETTINGS, instructions: { ...SETTINGS.instructions, maxTokens: 10 } };
    const agents = { path: 'AGENTS.md', text: `# Rules\n\n${words(40, 'r')}\n` };
    const codes = (r: PromptReport) => r.findings.map((f) => `${f.code}@${f.file}`);
    assert.ok(codes(build([...WORKSPACE, agents], {}, tight)).includes('instructions-budget@AGENTS.md'));
    const quiet = { ...agents, text: `${agents.text}<!-- prompt-lens-disable instructions-budget -->\n` };
    assert.ok(!codes(build([...WORKSPACE, quiet], {}, tight)).some((c) => c.startsWith('instructions-budget')));
    const pragma = { ...WORKSPACE[0]!, text: `<!-- prompt-lens-disable cache-breaker -->\n${WORKSPACE[0]!.text}` };
    assert.ok(!codes(build([pragma, ...WORKSPACE.slice(1)])).includes('cache-breaker@c.prompt'));
    const disabled = build(WORKSPACE, {}, { ...SETTINGS, disabled: ['prefix-cache'] });
    assert.deepEqual(disabled.summary, { files: 4, error: 1, warning: 2, information: 0 });
  });

  it('instruction files load from the given folders', () => {
    const file = { path: 'rules/all.instructions.md', text: `---\napplyTo: '**'\n---\n${words(30, 'i')}\n` };
    const always = (locations?: string[]) => build([...WORKSPACE, file], {}, SETTINGS, locations).instructions.alwaysOn;
    assert.deepEqual(
      always(['rules']).map((e) => e.file),
      ['rules/all.instructions.md'],
    );
    assert.deepEqual(always(), []);
  });
});

describe('workspace report with a token correction', () => {
  // An approximate tokenizer (claude: no chat overhead here): a and b count 1,100 system words + 2 user words, 1,102.
  const CLAUDE: Tokenizer = { ...wordTokenizer, id: 'claude' };
  const CORRECTION: TokenCorrection = {
    tokenizer: 'claude',
    endpoint: { name: 'proxy', baseUrl: 'http://127.0.0.1:9', model: 'm' },
    fit: 'line',
    ratio: 1.5,
    offset: 10,
    requests: 1234,
    sizes: 3,
    samples: [{ local: 100, billed: 160, requests: 1234 }],
    date: '2026-12-01',
  };
  const corrected = (tokenizer: Tokenizer, correction?: TokenCorrection) =>
    buildReport(WORKSPACE.slice(1, 3), {
      tokenizer,
      costModel: linearCostModel(PARAMS),
      settings: SETTINGS,
      ...(correction ? { correction } : {}),
    });

  it('every figure is on the corrected count, and the target says from how many requests and how', () => {
    assert.deepEqual(
      corrected(CLAUDE).files.map((f) => f.tokens),
      [1102, 1102],
    );
    const report = corrected(CLAUDE, CORRECTION);
    // 1.5 × 1,102 + 10 = 1,663 tokens: TTFT 100 + 166.3 ms, $2 per million.
    for (const f of report.files) {
      assert.equal(f.tokens, 1663);
      close(f.ttftMs, 266.3);
      close(f.costUsd!, 0.003326);
    }
    assert.deepEqual(
      report.cacheGroups[0]!.members.map((m) => m.promptTokens),
      [1663, 1663],
    );
    assert.deepEqual(report.target.tokensCorrected, {
      requests: 1234,
      formula: 'billed ≈ 1.5000 × local + 10.0 (3 prompt sizes)',
    });
  });

  it('a correction of another tokenizer, or of an exact one, changes nothing and is not mentioned', () => {
    for (const report of [
      corrected(CLAUDE, { ...CORRECTION, tokenizer: 'gemini' }),
      corrected(TOKENIZER, { ...CORRECTION, tokenizer: 'cl100k_base' }),
    ]) {
      assert.equal('tokensCorrected' in report.target, false);
      assert.notEqual(report.files[0]!.tokens, 1663);
    }
  });
});

describe('--fail-on (hasFindingsAtOrAbove)', () => {
  it('true when a finding is at or above the level', () => {
    const report = build();
    assert.equal(hasFindingsAtOrAbove(report, 'error'), true);
    const noError = build(WORKSPACE.slice(0, 3));
    assert.deepEqual(noError.summary, { files: 3, error: 0, warning: 1, information: 2 });
    assert.equal(hasFindingsAtOrAbove(noError, 'error'), false);
    assert.equal(hasFindingsAtOrAbove(noError, 'warning'), true);
    const infoOnly = build(WORKSPACE.slice(1, 3));
    assert.equal(hasFindingsAtOrAbove(infoOnly, 'warning'), false);
    assert.equal(hasFindingsAtOrAbove(infoOnly, 'information'), true);
    assert.equal(
      hasFindingsAtOrAbove(
        build(WORKSPACE.slice(0, 1), {}, { ...SETTINGS, disabled: ['cache-breaker'] }),
        'information',
      ),
      false,
    );
  });
});

/** Equal but for binary rounding (0.1 × n is not exact). */
function close(actual: number, expected: number): void {
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} vs ${expected}`);
}
