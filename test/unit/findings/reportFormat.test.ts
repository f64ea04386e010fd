import assert from 'node:assert/strict';
import type { InstructionsBudget } from '../../../src/core/findings/instructions';
import type { LocatedRange, PromptReport, ReportFinding } from '../../../src/core/findings/report';
import { reportMarkdown } from '../../../src/core/findings/reportMarkdown';
import { activationLabel, formatInstructions, formatReport } from '../../../src/core/findings/reportText';

// The text and Markdown reports are what a user reads and CI logs keep: their exact lines are the contract.
// The report here is built by hand, so every figure in the expected text is derived from it below.

/** A range at one offset, with its line and column as report.ts locates them. */
const at = (offset: number, line: number, column: number): LocatedRange => ({
  start: offset,
  end: offset,
  startPosition: { line, column },
  endPosition: { line, column },
});

const finding = (
  severity: ReportFinding['severity'],
  file: string,
  offset: number,
  line: number,
  message: string,
): ReportFinding => ({
  code: 'cache-breaker',
  severity,
  message,
  file,
  range: at(offset, line, 2),
  relatedFiles: [],
  data: {},
});

const NO_INSTRUCTIONS: InstructionsBudget = {
  alwaysOn: [],
  conditional: [],
  tokens: 0,
  cacheableTokens: 0,
  cold: { ttftMs: 0, costUsd: 0 },
  warm: { ttftMs: 0, costUsd: 0 },
  maxTokens: 2000,
  target: 'm · gpu',
};

const INSTRUCTIONS: InstructionsBudget = {
  ...NO_INSTRUCTIONS,
  alwaysOn: [
    { file: 'AGENTS.md', format: 'agents-md', tokens: 1500, activation: { kind: 'always' } },
    {
      file: '.github/skills/pdf/SKILL.md',
      format: 'skill',
      tokens: 40,
      activation: { kind: 'always' },
      skillMetadata: true,
    },
  ],
  conditional: [
    {
      file: '.github/instructions/ts.instructions.md',
      format: 'instructions',
      tokens: 300,
      activation: { kind: 'globs', globs: ['**/*.ts', 'src/**'] },
    },
  ],
  tokens: 1540,
  cacheableTokens: 1536,
  cold: { ttftMs: 150, costUsd: 0.004 },
  warm: { ttftMs: 20, costUsd: 0.0005 },
  maxTokens: 1000,
};

function report(): PromptReport {
  return {
    schemaVersion: 1,
    target: {
      label: 'm · gpu',
      serving: 'vLLM, server-side',
      scenario: '8 concurrent requests, 256 output tokens',
      tokenizer: 'o200k_base',
      contextWindow: 128000,
      cacheRule: { minTokens: 1024, granularity: 128 },
    },
    files: [
      { file: 'a.prompt', tokens: 1234, ttftMs: 432.4, costUsd: 0.0123, regions: [] },
      {
        file: 'sub/my_prompt.prompt',
        tokens: 56,
        ttftMs: 5.2,
        costUsd: null,
        regions: [
          { kind: 'xml', marker: 'doc', range: at(0, 1, 1), tokens: 10, share: 0.2, addedTtftMs: 1, addedCostUsd: 0 },
          { kind: 'xml', marker: 'doc', range: at(5, 2, 1), tokens: 5, share: 0.1, addedTtftMs: 1, addedCostUsd: 0 },
        ],
      },
    ],
    cacheGroups: [
      {
        sharedTokens: 2048,
        cacheableTokens: 1920,
        members: [member('a.prompt', at(40, 3, 5), 120, 432.4, 1.2), member('b.prompt', at(41, 4, 1), 125, 440, null)],
      },
      { sharedTokens: 1100, cacheableTokens: 1024, members: [member('c.prompt', at(9, 2, 9), 50, 60, 0.05)] },
    ],
    findings: [
      finding('information', 'b.prompt', 10, 2, 'info at 10'),
      finding('warning', 'b.prompt', 50, 6, 'warning at 50'),
      finding('warning', 'a.prompt', 70, 9, 'warning in a'),
      finding('warning', 'b.prompt', 5, 1, 'warning at 5'),
      finding('error', 'z.prompt', 1, 1, 'error in z'),
    ],
    instructions: INSTRUCTIONS,
    summary: { files: 2, error: 1, warning: 3, information: 1 },
  };
}

function member(file: string, prefixEnd: LocatedRange, warm: number, cold: number, saved: number | null) {
  return {
    file,
    promptTokens: 3000,
    sharedTokens: 2048,
    cacheableTokens: 1920,
    prefixEnd,
    coldTtftMs: cold,
    warmTtftMs: warm,
    savedUsdPer1kCalls: saved,
  };
}

function emptyReport(): PromptReport {
  return {
    ...report(),
    target: { ...report().target, cacheRule: null },
    files: [],
    cacheGroups: [],
    findings: [],
    instructions: NO_INSTRUCTIONS,
    summary: { files: 0, error: 0, warning: 0, information: 0 },
  };
}

// describeInstructionsBudget(INSTRUCTIONS), derived: 1,540 tokens in 2 files, cold +150 ms and $0.0040
// ($4.00 per 1,000), warm +20 ms and $0.00050 ($0.50 per 1,000), 1,536 cacheable.
const BUDGET =
  'Always-on instructions: 1,540 tokens in 2 files, prepended to every chat request: +150 ms TTFT and $0.0040 ' +
  'per request cold ($4.00 per 1,000), +20 ms and $0.00050 ($0.50 per 1,000) when the prefix cache serves them ' +
  '(1,536 cacheable) on m · gpu';

describe('workspace report as text (formatReport)', () => {
  it('prints the table, target, cache groups, instructions, findings by severity/file/offset and the summary', () => {
    const expected = [
      // Column widths: 20 (sub/my_prompt.prompt), 6 (TOKENS), 6 (432 ms), 9 (COST/CALL), 10 (RAG TOKENS).
      'FILE                  TOKENS    TTFT  COST/CALL  RAG TOKENS',
      'a.prompt               1,234  432 ms     $0.012           -',
      'sub/my_prompt.prompt      56  5.2 ms   no price          15',
      '',
      'Target: m · gpu (vLLM, server-side) · tokenizer o200k_base · cache: ≥ 1,024 tokens in steps of 128',
      'TTFT and $/call: cold (nothing cached), 8 concurrent requests, 256 output tokens',
      '',
      'Cache groups:',
      '  1. 2,048 shared tokens, 1,920 cacheable, 2 files',
      '     a.prompt:3:5  warm 120 ms vs cold 432 ms, saves $1.20 per 1,000 calls',
      '     b.prompt:4:1  warm 125 ms vs cold 440 ms, saves no price per 1,000 calls',
      '  2. 1,100 shared tokens, 1,024 cacheable, 1 files',
      '     c.prompt:2:9  warm 50 ms vs cold 60 ms, saves $0.050 per 1,000 calls',
      '',
      `${BUDGET}; budget 1,000 (over).`,
      '  They are sent first and unchanged on every request: the natural cacheable prefix.',
      '     1,500  AGENTS.md',
      '        40  .github/skills/pdf/SKILL.md  (skill name and description)',
      '  Not always on:',
      '       300  .github/instructions/ts.instructions.md  (when files match **/*.ts, src/**)',
      '',
      'Findings:',
      '  error       z.prompt:1:2  cache-breaker  error in z',
      '  warning     a.prompt:9:2  cache-breaker  warning in a',
      '  warning     b.prompt:1:2  cache-breaker  warning at 5',
      '  warning     b.prompt:6:2  cache-breaker  warning at 50',
      '  information b.prompt:2:2  cache-breaker  info at 10',
      '',
      '2 prompt files · 1 error · 3 warnings · 1 information',
      '',
    ].join('\n');
    const r = report();
    const before = r.findings.map((f) => f.message);
    assert.equal(formatReport(r), expected);
    assert.deepEqual(
      r.findings.map((f) => f.message),
      before,
      'the report it was given is not reordered',
    );
  });

  it('an empty workspace: the header row alone, and "none" for groups, instructions and findings', () => {
    assert.equal(
      formatReport(emptyReport()),
      [
        'FILE  TOKENS  TTFT  COST/CALL  RAG TOKENS',
        '',
        'Target: m · gpu (vLLM, server-side) · tokenizer o200k_base · no prefix caching',
        'TTFT and $/call: cold (nothing cached), 8 concurrent requests, 256 output tokens',
        '',
        'Cache groups: none',
        '',
        'Always-on instructions: none',
        '',
        'Findings: none',
        '',
        '0 prompt files · 0 errors · 0 warnings · 0 information',
        '',
      ].join('\n'),
    );
  });
});

describe('always-on instructions as text (formatInstructions)', () => {
  it('none only when there is neither an always-on nor a conditional file', () => {
    assert.deepEqual(formatInstructions(NO_INSTRUCTIONS), ['Always-on instructions: none']);
    const onlyConditional = { ...INSTRUCTIONS, alwaysOn: [], tokens: 0, cacheableTokens: 0 };
    const lines = formatInstructions(onlyConditional);
    assert.equal(lines.length, 4, lines.join('\n'));
    assert.match(lines[0] as string, /^Always-on instructions: 0 tokens in 0 files, .*; budget 1,000\.$/);
    assert.equal(lines[2], '  Not always on:');
  });

  it('"(over)" only when the tokens exceed the budget, not at it; no "Not always on" without such files', () => {
    const atBudget = { ...INSTRUCTIONS, tokens: 1000, conditional: [] };
    const lines = formatInstructions(atBudget);
    assert.match(lines[0] as string, /; budget 1,000\.$/);
    assert.deepEqual(lines.slice(1), [
      '  They are sent first and unchanged on every request: the natural cacheable prefix.',
      '     1,500  AGENTS.md',
      '        40  .github/skills/pdf/SKILL.md  (skill name and description)',
    ]);
    assert.match(formatInstructions({ ...atBudget, tokens: 1001 })[0] as string, /; budget 1,000 \(over\)\.$/);
  });

  it('says when each kind of instruction file applies', () => {
    assert.equal(activationLabel({ kind: 'always' }), 'every request');
    assert.equal(activationLabel({ kind: 'globs', globs: ['a/**', '*.md'] }), 'when files match a/**, *.md');
    assert.equal(activationLabel({ kind: 'on-request' } as never), 'when the model picks it by its description');
    assert.equal(activationLabel({ kind: 'manual' } as never), 'when attached by hand');
    assert.equal(activationLabel({ kind: 'agent' } as never), 'while this agent is selected');
  });
});

/** The Markdown lines from the scenario sentence to the prompts table's header, the same for every report here. */
const MD_PROMPTS_HEAD = [
  '',
  "_TTFT and $/call are cold (nothing cached) at 8 concurrent requests, 256 output tokens: the figures the editor's hover shows._",
  '',
  '## Prompts',
  '',
  '| file | tokens | TTFT (cold) | $/call | retrieved-context tokens |',
  '|---|---:|---:|---:|---:|',
];

/** The conditional instruction files' table (its globs escaped) and the next heading. */
const MD_CONDITIONAL = [
  '',
  '| other instruction files | tokens | applies |',
  '|---|---:|---|',
  '| [.github/instructions/ts.instructions.md](open:.github/instructions/ts.instructions.md#1) | 300 | when files match \\*\\*/\\*.ts, src/\\*\\* |',
  '',
  '## Findings',
];

describe('workspace report: counts corrected by the endpoint’s bills', () => {
  const corrected = (): PromptReport => {
    const r = report();
    r.target.tokensCorrected = { requests: 1234, formula: 'billed ≈ 1.5000 × local + 10.0 (3 prompt | sizes)' };
    return r;
  };

  it('the text says so under the scenario line, with the requests and the formula', () => {
    assert.deepEqual(formatReport(corrected()).split('\n').slice(4, 8), [
      'Target: m · gpu (vLLM, server-side) · tokenizer o200k_base · cache: ≥ 1,024 tokens in steps of 128',
      'TTFT and $/call: cold (nothing cached), 8 concurrent requests, 256 output tokens',
      'Token counts corrected from 1,234 requests: billed ≈ 1.5000 × local + 10.0 (3 prompt | sizes)',
      '',
    ]);
  });

  it('the Markdown says so under the note on cold figures, the formula escaped', () => {
    const lines = reportMarkdown(corrected(), (file, line) => `open:${file}#${line}`).split('\n');
    const at = lines.findIndex((l) => l.startsWith('_TTFT and $/call are cold'));
    assert.deepEqual(lines.slice(at + 1, at + 3), [
      '_Token counts corrected from 1,234 requests: billed ≈ 1.5000 × local + 10.0 (3 prompt \\| sizes)._',
      '',
    ]);
    // Without a correction, no such line.
    const plain = reportMarkdown(report(), (file, line) => `open:${file}#${line}`).split('\n');
    assert.equal(plain[plain.findIndex((l) => l.startsWith('_TTFT and $/call are cold')) + 1], '');
  });
});

describe('workspace report as Markdown (reportMarkdown)', () => {
  const link = (file: string, line: number) => `open:${file}#${line}`;

  it('links every file and finding, escapes prompt text for table cells and keeps the report order', () => {
    const r = report();
    r.findings = [finding('warning', 'b.prompt', 5, 1, 'a | b *c*'), finding('error', 'z.prompt', 1, 1, 'e')];
    const expected = [
      '# Prompt Latency Lens — workspace report',
      '',
      'Target **m · gpu** (vLLM, server-side; tokenizer `o200k_base`, cache: ≥ 1,024 tokens in steps of 128). ' +
        '2 prompt files · 1 error · 3 warnings · 1 information.',
      ...MD_PROMPTS_HEAD,
      '| [a.prompt](open:a.prompt#1) | 1,234 | 432 ms | $0.012 | 0 |',
      '| [sub/my\\_prompt.prompt](open:sub/my_prompt.prompt#1) | 56 | 5.2 ms | no price | 15 |',
      '',
      '## Prefix-cache groups',
      '',
      '**Group 1**: 2,048 shared tokens, 1,920 cacheable',
      '',
      '| file | prefix ends | warm vs cold TTFT | saved per 1,000 calls |',
      '|---|---|---|---:|',
      '| [a.prompt](open:a.prompt#3) | line 3 | 120 ms vs 432 ms | $1.20 |',
      '| [b.prompt](open:b.prompt#4) | line 4 | 125 ms vs 440 ms | no price |',
      '',
      '**Group 2**: 1,100 shared tokens, 1,024 cacheable',
      '',
      '| file | prefix ends | warm vs cold TTFT | saved per 1,000 calls |',
      '|---|---|---|---:|',
      '| [c.prompt](open:c.prompt#2) | line 2 | 50 ms vs 60 ms | $0.050 |',
      '',
      '',
      '## Always-on instructions',
      '',
      // A table cell escapes `$` (Markdown math in VS Code's preview).
      `${BUDGET.replace(/\$/g, '\\$')}; budget 1,000. Sent first and unchanged on every request, they are the natural cacheable prefix.`,
      '',
      '| file | tokens |',
      '|---|---:|',
      '| [AGENTS.md](open:AGENTS.md#1) | 1,500 |',
      '| [.github/skills/pdf/SKILL.md](open:.github/skills/pdf/SKILL.md#1) (skill name and description) | 40 |',
      ...MD_CONDITIONAL,
      '',
      '| severity | where | code | finding |',
      '|---|---|---|---|',
      '| warning | [b.prompt:1:2](open:b.prompt#1) | `cache-breaker` | a \\| b \\*c\\* |',
      '| error | [z.prompt:1:2](open:z.prompt#1) | `cache-breaker` | e |',
      '',
    ].join('\n');
    assert.equal(reportMarkdown(r, link), expected);
  });

  it('an empty workspace says "none" in each section', () => {
    assert.equal(
      reportMarkdown(emptyReport(), link),
      [
        '# Prompt Latency Lens — workspace report',
        '',
        'Target **m · gpu** (vLLM, server-side; tokenizer `o200k_base`, no prefix caching). ' +
          '0 prompt files · 0 errors · 0 warnings · 0 information.',
        ...MD_PROMPTS_HEAD,
        '',
        '## Prefix-cache groups',
        '',
        'No two prompts share a cacheable prefix.',
        '',
        '## Always-on instructions',
        '',
        'None: no file is prepended to every chat request.',
        '',
        '## Findings',
        '',
        'None.',
        '',
      ].join('\n'),
    );
  });

  it('conditional instruction files without always-on ones: "None" and then their table', () => {
    const r = emptyReport();
    r.instructions = { ...INSTRUCTIONS, alwaysOn: [], conditional: [INSTRUCTIONS.conditional[0]!] };
    const text = reportMarkdown(r, link);
    assert.ok(text.includes(['None: no file is prepended to every chat request.', ...MD_CONDITIONAL].join('\n')), text);
  });
});
