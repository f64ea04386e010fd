import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { linearCostModel, type FindingCostModel } from '../../../src/core/findings/costModel';
import {
  describeInstructionsBudget,
  instructionsBudget,
  instructionsBudgetFinding,
  type InstructionSource,
} from '../../../src/core/findings/instructions';
import { PrefixCacheAnalyser } from '../../../src/core/findings/prefixCache';
import type { PromptReport } from '../../../src/core/findings/report';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import type { PromptFormat } from '../../../src/core/prompt/formats';
import { parsePrompt } from '../../../src/core/prompt/parse';
import type { Activation } from '../../../src/core/prompt/types';
import { memoryIo } from '../helpers/memoryIo';
import { wordTokenizer, words } from './helpers';

// 0.1 ms and $1 per million per uncached token, a tenth of that cached, 100 ms fixed.
const model = linearCostModel({
  label: 'test model',
  cacheRule: { minTokens: 1024, granularity: 128 },
  baseMs: 100,
  msPerToken: 0.1,
  msPerCachedToken: 0.01,
  usdPerMillionInput: 1,
  usdPerMillionCached: 0.1,
});

const workspace: Record<string, string> = {
  '.github/copilot-instructions.md': `# Project\n${words(1200, 'c')}\n`,
  'AGENTS.md': `# Agents\n${words(600, 'a')}\n`,
  'pkg/AGENTS.md': `# Package\n${words(300, 'p')}\n`,
  '.github/instructions/all.instructions.md': `---\napplyTo: '**'\n---\n${words(400, 'i')}\n`,
  '.github/instructions/ts.instructions.md': `---\napplyTo: '**/*.ts'\n---\n${words(500, 't')}\n`,
  'catalogue/all.instructions.md': `---\napplyTo: '**'\n---\n${words(700, 'k')}\n`,
  '.cursor/rules/always.mdc': `---\ndescription: House style\nglobs:\nalwaysApply: true\n---\n${words(200, 'r')}\n`,
  '.cursor/rules/py.mdc': `---\nglobs: **/*.py\nalwaysApply: false\n---\n${words(100, 'y')}\n`,
  '.github/agents/review.agent.md': `---\ndescription: Reviewer\n---\n${words(900, 'g')}\n`,
  '.github/skills/pdf/SKILL.md': `---\nname: pdf\ndescription: Fill PDF forms and merge files.\n---\n${words(3000, 's')}\n`,
  'prompts/support.prompt': `system:\n${words(50)}\nuser:\n{{question}}\n`,
};

function analysed(files: Record<string, string>) {
  const analyser = new PrefixCacheAnalyser({
    tokenizer: wordTokenizer,
    costModel: model,
    settings: DEFAULT_FINDING_SETTINGS.cache,
  });
  for (const [file, text] of Object.entries(files)) analyser.update(file, text, parsePrompt(file, text));
  return analyser;
}

describe('always-on instructions budget', () => {
  it('adds up what every request carries: copilot-instructions, the root AGENTS.md, applyTo "**" in an instructions folder, alwaysApply rules, skill descriptions', () => {
    const b = instructionsBudget(analysed(workspace).instructionSources(), model, { maxTokens: 4000 }, (text) =>
      wordTokenizer.count(text),
    );
    assert.deepEqual(
      b.alwaysOn.map((e) => [e.file, e.tokens]),
      [
        ['.github/copilot-instructions.md', 1202],
        ['AGENTS.md', 602],
        ['.github/instructions/all.instructions.md', 400],
        ['.cursor/rules/always.mdc', 200],
        // "pdf: Fill PDF forms and merge files." — the name and description every request lists.
        ['.github/skills/pdf/SKILL.md', 7],
      ],
    );
    assert.equal(b.tokens, 2411);
    assert.deepEqual(
      b.conditional.map((e) => [e.file, e.activation.kind]),
      [
        ['.cursor/rules/py.mdc', 'globs'],
        ['.github/agents/review.agent.md', 'agent'],
        ['.github/instructions/ts.instructions.md', 'globs'],
        ['.github/skills/pdf/SKILL.md', 'on-request'],
        // Outside an instructions folder VS Code does not load it, whatever its applyTo says.
        ['catalogue/all.instructions.md', 'manual'],
        // A nested AGENTS.md applies to its folder only.
        ['pkg/AGENTS.md', 'globs'],
      ],
    );
    // Cold: 2,411 more uncached tokens; warm: 2,304 of them (1,024 minimum, 128-token steps) cached.
    assert.equal(b.cacheableTokens, 2304);
    assert.ok(Math.abs(b.cold.ttftMs - 241.1) < 1e-9);
    assert.ok(Math.abs(b.cold.costUsd! - 2411e-6) < 1e-12);
    assert.ok(Math.abs(b.warm.ttftMs - (107 * 0.1 + 2304 * 0.01)) < 1e-9);
    assert.ok(Math.abs(b.warm.costUsd! - (107e-6 + 2304 * 0.1e-6)) < 1e-12);
    assert.equal(instructionsBudgetFinding(b), undefined, 'under the 4,000-token budget');
  });

  it('over the budget: a warning on the biggest file naming the others, marked as the natural cacheable prefix', () => {
    const b = instructionsBudget(analysed(workspace).instructionSources(), model, { maxTokens: 2000 }, (text) =>
      wordTokenizer.count(text),
    );
    const f = instructionsBudgetFinding(b)!;
    assert.equal(f.code, 'instructions-budget');
    assert.equal(f.severity, 'warning');
    assert.equal(f.file, '.github/copilot-instructions.md');
    assert.match(
      f.message,
      /^Always-on instructions: 2,411 tokens in 5 files, prepended to every chat request: \+241 ms TTFT and \$0\.0024 per request cold \(\$2\.41 per 1,000\), .* on test model; budget 2,000\. They are the natural cacheable prefix/,
    );
    assert.deepEqual(
      f.relatedFiles?.map((r) => r.file),
      [
        'AGENTS.md',
        '.github/instructions/all.instructions.md',
        '.cursor/rules/always.mdc',
        '.github/skills/pdf/SKILL.md',
      ],
    );
  });

  it('prompt-lens report --instructions prints the budget alone; the full report and its JSON carry it too', async () => {
    const files = Object.fromEntries(Object.entries(workspace).map(([k, v]) => [`/ws/${k}`, v]));
    const io = memoryIo(files);
    assert.equal(
      await runCli(
        ['report', '/ws', '--instructions', '--target', 'openai/gpt-4o', '--instructions-max-tokens', '1000'],
        io,
      ),
      0,
    );
    assert.match(
      io.stdout,
      /^Always-on instructions: [\d,]+ tokens in 5 files, prepended to every chat request: .* on openai\/gpt-4o.*budget 1,000 \(over\)\./,
    );
    assert.match(io.stdout, /natural cacheable prefix/);
    assert.match(io.stdout, /\.github\/copilot-instructions\.md\n/);
    assert.match(io.stdout, /pkg\/AGENTS\.md {2}\(when files match pkg\/\*\*\)/);
    assert.doesNotMatch(io.stdout, /FILE +TOKENS/, 'not the whole report');

    const json = memoryIo(files);
    await runCli(['report', '/ws', '--json', '--instructions-max-tokens', '1000'], json);
    const report = JSON.parse(json.stdout) as PromptReport;
    assert.equal(report.instructions.alwaysOn.length, 5);
    assert.deepEqual(
      report.findings.filter((f) => f.code === 'instructions-budget').map((f) => f.file),
      ['.github/copilot-instructions.md'],
    );
    const text = memoryIo(files);
    await runCli(['report', '/ws', '--disable', 'instructions-budget'], text);
    assert.match(text.stdout, /Always-on instructions: [\d,]+ tokens in 5 files/);
    assert.doesNotMatch(text.stdout, /instructions-budget/);
  });

  it('each format can be switched off: --disable-format drops its files from the report', async () => {
    const files = Object.fromEntries(Object.entries(workspace).map(([k, v]) => [`/ws/${k}`, v]));
    const io = memoryIo(files);
    await runCli(['report', '/ws', '--json', '--disable-format', 'agents-md,skill'], io);
    const report = JSON.parse(io.stdout) as PromptReport;
    assert.ok(!report.files.some((f) => /AGENTS\.md|SKILL\.md/.test(f.file)));
    assert.equal(report.instructions.alwaysOn.length, 3);
    const bad = memoryIo(files);
    assert.equal(await runCli(['report', '/ws', '--disable-format', 'agentsmd'], bad), 2);
    assert.match(bad.stderr, /--disable-format agentsmd: unknown format; formats: prompty, /);
  });
});

// The budget on sources built by hand: format, activation and token count chosen per case.
const unpriced: FindingCostModel = { ...model, label: 'hardware', costUsd: () => null };

function source(file: string, format: PromptFormat, tokens: number, activation?: Activation): InstructionSource {
  return {
    file,
    tokens,
    parsed: {
      format,
      engine: 'generic',
      messages: [],
      variables: [],
      settings: activation ? { activation } : {},
      errors: [],
    },
  };
}
const always: Activation = { kind: 'always' };
// Characters, not words: the skill line's text shows in its count.
const chars = (text: string) => text.length;
const budget = (sources: InstructionSource[], m = model, maxTokens = 4000, locations?: string[]) =>
  instructionsBudget(sources, m, { maxTokens }, chars, locations);
const activations = (entries: Array<{ file: string; activation: Activation }>) =>
  Object.fromEntries(entries.map((e) => [e.file, e.activation]));

describe('always-on instructions, file by file', () => {
  it('where a file lies narrows when it applies', () => {
    const b = budget([
      source('.github/copilot-instructions.md', 'copilot-instructions', 10, always),
      source('docs/copilot-instructions.md', 'copilot-instructions', 10, always),
      source('AGENTS.md', 'agents-md', 10, always),
      source('pkg/AGENTS.md', 'agents-md', 10, always),
      source('.cursorrules', 'cursor-rules', 10, always),
      source('pkg/.cursorrules', 'cursor-rules', 10, always),
      source('.cursor/rules/a.mdc', 'cursor-rules', 10, always),
      source('web/.cursor/rules/b.mdc', 'cursor-rules', 10, always),
      source('web/.cursor/rules/sub/c.mdc', 'cursor-rules', 10, always),
      source('web/.cursor/rules/py.mdc', 'cursor-rules', 10, { kind: 'globs', globs: ['**/*.py'] }),
      source('.github/instructions/x.instructions.md', 'instructions', 10),
      source('catalogue/g.instructions.md', 'instructions', 10, { kind: 'globs', globs: ['**/*.go'] }),
      source('prompts/p.prompt', 'plain', 10, always),
    ]);
    assert.deepEqual(activations(b.alwaysOn), {
      '.github/copilot-instructions.md': always,
      'AGENTS.md': always,
      '.cursorrules': always,
      '.cursor/rules/a.mdc': always,
    });
    assert.deepEqual(activations(b.conditional), {
      'docs/copilot-instructions.md': { kind: 'manual' },
      'pkg/AGENTS.md': { kind: 'globs', globs: ['pkg/**'] },
      'pkg/.cursorrules': { kind: 'globs', globs: ['pkg/**'] },
      'web/.cursor/rules/b.mdc': { kind: 'globs', globs: ['web/**'] },
      'web/.cursor/rules/sub/c.mdc': { kind: 'globs', globs: ['web/**'] },
      'web/.cursor/rules/py.mdc': { kind: 'globs', globs: ['**/*.py'] },
      '.github/instructions/x.instructions.md': { kind: 'manual' },
      'catalogue/g.instructions.md': { kind: 'globs', globs: ['**/*.go'] },
    });
  });

  it('instruction folders may be given with trailing slashes', () => {
    const b = budget(
      [
        source('custom/instr/a.instructions.md', 'instructions', 10, always),
        source('other/b.instructions.md', 'instructions', 10, always),
      ],
      model,
      4000,
      ['custom/instr//'],
    );
    assert.deepEqual(
      b.alwaysOn.map((e) => e.file),
      ['custom/instr/a.instructions.md'],
    );
    assert.deepEqual(
      budget([source('custom/instr/a.instructions.md', 'instructions', 10, always)], model, 4000, ['custom/instr/'])
        .alwaysOn.length,
      1,
    );
  });

  it('a skill in a skills folder puts its folder name and description in every request', () => {
    const b = budget([
      source('.github/skills/team/review/SKILL.md', 'skill', 500, { kind: 'on-request', description: 'Review code.' }),
      source('.claude/skills/bare/SKILL.md', 'skill', 300, { kind: 'on-request' }),
      source('docs/skills/loose/SKILL.md', 'skill', 200, { kind: 'on-request', description: 'Not listed.' }),
      source('.github/skills/team/AGENTS.md', 'agents-md', 100),
    ]);
    assert.deepEqual(b.alwaysOn, [
      {
        file: '.github/skills/team/review/SKILL.md',
        format: 'skill',
        tokens: 'review: Review code.'.length,
        activation: always,
        skillMetadata: true,
      },
      {
        file: '.claude/skills/bare/SKILL.md',
        format: 'skill',
        tokens: 'bare: '.length,
        activation: always,
        skillMetadata: true,
      },
    ]);
    assert.deepEqual(
      b.conditional.map((e) => [e.file, e.tokens]),
      [
        ['.claude/skills/bare/SKILL.md', 300],
        ['.github/skills/team/AGENTS.md', 100],
        ['.github/skills/team/review/SKILL.md', 500],
        ['docs/skills/loose/SKILL.md', 200],
      ],
    );
  });

  it('orders always-on files biggest first, equal sizes by name; others by name', () => {
    const b = budget([
      source('b/AGENTS.md', 'agents-md', 5),
      source('.github/copilot-instructions.md', 'copilot-instructions', 20, always),
      source('AGENTS.md', 'agents-md', 30, always),
      source('.cursorrules', 'cursor-rules', 20, always),
      source('a/AGENTS.md', 'agents-md', 5),
    ]);
    assert.deepEqual(
      b.alwaysOn.map((e) => e.file),
      ['AGENTS.md', '.cursorrules', '.github/copilot-instructions.md'],
    );
    assert.deepEqual(
      b.conditional.map((e) => e.file),
      ['a/AGENTS.md', 'b/AGENTS.md'],
    );
    assert.equal(b.tokens, 70);
  });
});

describe('what the always-on set costs', () => {
  it('a set of exactly the cache minimum is all cacheable (one request token follows it)', () => {
    const b = budget([source('AGENTS.md', 'agents-md', 1024, always)]);
    assert.equal(b.cacheableTokens, 1024);
    assert.ok(Math.abs(b.warm.ttftMs - 1024 * 0.01) < 1e-9);
  });

  it('nothing always on adds nothing, priced or not; an unpriced target says null', () => {
    const none = budget([], unpriced);
    assert.deepEqual([none.tokens, none.cold, none.warm], [0, { ttftMs: 0, costUsd: 0 }, { ttftMs: 0, costUsd: 0 }]);
    const b = budget([source('AGENTS.md', 'agents-md', 2000, always)], unpriced, 1000);
    assert.equal(b.cold.costUsd, null);
    assert.equal(b.warm.costUsd, null);
    const f = instructionsBudgetFinding(b)!;
    assert.deepEqual(f.data, {
      tokens: 2000,
      maxTokens: 1000,
      cacheableTokens: 1920,
      coldTtftMs: b.cold.ttftMs,
      warmTtftMs: b.warm.ttftMs,
      files: ['AGENTS.md'],
    });
  });

  it('says it in one line, one file or several', () => {
    const one = budget([source('AGENTS.md', 'agents-md', 2000, always)]);
    assert.equal(
      describeInstructionsBudget(one),
      'Always-on instructions: 2,000 tokens in 1 file, prepended to every chat request: +200 ms TTFT and $0.0020 per ' +
        'request cold ($2.00 per 1,000), +27 ms and $0.00027 ($0.27 per 1,000) when the prefix cache serves them ' +
        '(1,920 cacheable) on test model',
    );
    const two = budget([
      source('AGENTS.md', 'agents-md', 2000, always),
      source('.cursorrules', 'cursor-rules', 10, always),
    ]);
    assert.match(describeInstructionsBudget(two), /^Always-on instructions: 2,010 tokens in 2 files,/);
  });

  it('the finding: on the biggest file, only over the budget, naming the others and what they add', () => {
    const sources = [
      source('AGENTS.md', 'agents-md', 2000, always),
      source('.cursorrules', 'cursor-rules', 1000, always),
      source('.github/skills/pdf/SKILL.md', 'skill', 900, { kind: 'on-request', description: 'Fill forms.' }),
    ];
    const skillTokens = 'pdf: Fill forms.'.length;
    const total = 3000 + skillTokens;
    assert.equal(instructionsBudgetFinding(budget(sources, model, total)), undefined, 'at the budget exactly');
    assert.equal(instructionsBudgetFinding(budget([], model, 1)), undefined, 'nothing always on');
    const b = budget(sources, model, total - 1);
    const f = instructionsBudgetFinding(b)!;
    assert.deepEqual(f, {
      code: 'instructions-budget',
      severity: 'warning',
      message:
        `${describeInstructionsBudget(b)}; budget 3,015. They are the natural cacheable prefix: keep them stable, and ` +
        'move what only some requests need into files with narrower applyTo/globs or into skills',
      file: 'AGENTS.md',
      range: { start: 0, end: 0 },
      relatedFiles: [
        { file: '.cursorrules', range: { start: 0, end: 0 }, message: '1,000 always-on tokens' },
        {
          file: '.github/skills/pdf/SKILL.md',
          range: { start: 0, end: 0 },
          message: `${skillTokens} always-on tokens (skill name and description)`,
        },
      ],
      data: {
        tokens: total,
        maxTokens: total - 1,
        cacheableTokens: 2944,
        coldTtftMs: b.cold.ttftMs,
        warmTtftMs: b.warm.ttftMs,
        coldUsdPerRequest: b.cold.costUsd,
        warmUsdPerRequest: b.warm.costUsd,
        files: ['AGENTS.md', '.cursorrules', '.github/skills/pdf/SKILL.md'],
      },
    });
  });
});
