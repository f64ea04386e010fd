import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import {
  AGENT_TOOLS,
  languageModelToolContributions,
  languageModelToolNls,
  type AgentToolDefinition,
} from '../../../src/core/agentTools/definitions';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  engines: { vscode: string };
  contributes: { languageModelTools?: Array<{ name: string; toolReferenceName: string; inputSchema: object }> };
};
const contributed = manifest.contributes.languageModelTools ?? [];
const editorTools = Object.values(AGENT_TOOLS as Record<string, AgentToolDefinition>).filter((t) => t.editor);

describe('VS Code language-model tools (package.json, generated from the agent tools and their zod inputs)', () => {
  it('package.json contributes.languageModelTools is what `npm run schemas` writes today', () => {
    assert.deepEqual(contributed, languageModelToolContributions(), 'run `npm run schemas`');
  });

  it("package.nls.json holds each tool's display name and description, as `npm run schemas` writes them", () => {
    const nls = JSON.parse(readFileSync(join(__dirname, '../../../package.nls.json'), 'utf8')) as Record<
      string,
      string
    >;
    const written = Object.fromEntries(Object.entries(nls).filter(([key]) => key.startsWith('languageModelTool.')));
    assert.deepEqual(written, languageModelToolNls(), 'run `npm run schemas`');
    assert.equal(Object.keys(written).length, 2 * editorTools.length);
  });

  it('contributes promptLens_analyzePrompt, _compareTargets and _workspaceReport, each with its own #reference', () => {
    assert.deepEqual(
      contributed.map((t) => t.name),
      ['promptLens_analyzePrompt', 'promptLens_compareTargets', 'promptLens_workspaceReport'],
    );
    assert.equal(new Set(contributed.map((t) => t.toolReferenceName)).size, contributed.length);
    assert.equal(contributed[0]!.toolReferenceName, 'promptLens');
  });

  it('the engine version is one whose API has vscode.lm.registerTool (stable since 1.95)', () => {
    const [major, minor] = /^\^?(\d+)\.(\d+)/.exec(manifest.engines.vscode)!.slice(1).map(Number) as [number, number];
    assert.ok(major > 1 || minor >= 95, manifest.engines.vscode);
  });

  // The JSON schema the model sees and the zod schema the adapters parse with must accept the same calls.
  const calls: Array<[string, unknown]> = [
    ['promptLens_analyzePrompt', { path: 'prompts/a.prompt' }],
    ['promptLens_analyzePrompt', { path: 'a.prompt', targets: ['openai/gpt-4o'], scenario: { concurrency: 4 } }],
    ['promptLens_analyzePrompt', { path: 'a.prompt', scenario: { ttftMs: null, profile: 'batch' } }],
    ['promptLens_analyzePrompt', { path: '' }],
    ['promptLens_analyzePrompt', { path: 'a.prompt', targets: [] }],
    ['promptLens_analyzePrompt', { path: 'a.prompt', scenario: { concurrency: 0.5 } }],
    ['promptLens_analyzePrompt', { path: 'a.prompt', extra: true }],
    ['promptLens_analyzePrompt', {}],
    ['promptLens_compareTargets', { path: 'a.prompt', limit: 3 }],
    ['promptLens_compareTargets', { path: 'a.prompt', limit: 0 }],
    ['promptLens_compareTargets', { path: 'a.prompt', scenario: { profile: 'overnight' } }],
    ['promptLens_workspaceReport', {}],
    ['promptLens_workspaceReport', { dir: 'prompts', target: 'openai/gpt-4o', limit: 5 }],
    ['promptLens_workspaceReport', { limit: 201 }],
  ];
  for (const [name, input] of calls)
    it(`${name} ${JSON.stringify(input)}: the package.json schema and the zod input agree`, () => {
      const tool = editorTools.find((t) => t.editor!.name === name)!;
      const schema = contributed.find((t) => t.name === name)!.inputSchema;
      const json = new Ajv({ strict: false }).compile(schema)(input);
      assert.equal(json, tool.input.safeParse(input).success);
    });
});
