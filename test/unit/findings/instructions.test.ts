import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { linearCostModel } from '../../../src/core/findings/costModel';
import { instructionsBudget, instructionsBudgetFinding } from '../../../src/core/findings/instructions';
import { PrefixCacheAnalyser } from '../../../src/core/findings/prefixCache';
import type { PromptReport } from '../../../src/core/findings/report';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { parsePrompt } from '../../../src/core/prompt/parse';
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
