import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { estimate, loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { formatMs, formatRange, formatTokens, formatUsd } from '../../../src/core/format';
import {
  assertHoverRow,
  extensionApi,
  invokeAgentTool,
  openPrompt,
  promptLensHover,
  waitFor,
  type AgentData,
} from '../helpers';

describe('language-model tools (vscode.lm)', () => {
  it('contributes promptLens_analyzePrompt, _compareTargets and _workspaceReport to vscode.lm.tools', async () => {
    await extensionApi();
    const names = vscode.lm.tools.map((t) => t.name).filter((n) => n.startsWith('promptLens_'));
    assert.deepEqual(names.sort(), [
      'promptLens_analyzePrompt',
      'promptLens_compareTargets',
      'promptLens_workspaceReport',
    ]);
    const analyze = vscode.lm.tools.find((t) => t.name === 'promptLens_analyzePrompt')!;
    assert.deepEqual((analyze.inputSchema as { required?: string[] }).required, ['path']);
  });

  it('analyzePrompt answers with the hover’s tokens, TTFT, TPOT, E2E and cost on every target', async () => {
    const editor = await openPrompt('findings/rag-oversized.prompt');
    const { text, data } = await invokeAgentTool('promptLens_analyzePrompt', { path: 'findings/rag-oversized.prompt' });
    const targets = data.targets!;
    assert.ok(targets.length >= 2, JSON.stringify(data));
    const hover = await promptLensHover(editor.document.uri);
    const primary = targets[0]!;
    assert.ok(
      hover.includes(`prompt **${formatTokens(data.inputTokens as number, primary.tokensExact)}** tokens`),
      `tokens ${String(data.inputTokens)} not in\n${hover}`,
    );
    for (const t of targets) {
      assertHoverRow(hover, t);
      assert.ok(text.includes(`TTFT cold ${formatRange(t.ttftMs.cold)}`), text);
    }
    // And the primary's cold TTFT is the core's estimate (interactive: 8 requests in flight, 256 output tokens).
    const expected = estimate(resolveTarget(parseTargetId(primary.id), loadTables().tables), {
      inputTokens: primary.inputTokens,
      outputTokens: 256,
      concurrency: 8,
    });
    assert.equal(formatMs(primary.ttftMs.cold.p50), formatMs(expected.ttftMs.p50));
    // The same findings as the editor's Problems.
    const analysis = (await (await extensionApi()).analysis(editor.document))!;
    assert.deepEqual(
      (data.findings as Array<{ code: string }>).map((f) => f.code).sort(),
      analysis.findings.map((f) => f.code).sort(),
    );
    assert.ok((data.findings as unknown[]).length > 0, 'the oversized RAG prompt has findings');
  });

  it('analyzePrompt on the agent’s own target and scenario: the core’s estimate for that workload', async () => {
    const { data } = await invokeAgentTool('promptLens_analyzePrompt', {
      path: 'support.prompt',
      targets: ['anthropic/claude-sonnet-4'],
      scenario: { concurrency: 1, outputTokens: 100 },
    });
    const [t] = data.targets!;
    assert.equal(t!.id, 'anthropic/claude-sonnet-4');
    assert.deepEqual(
      [(data.profile as { concurrency: number }).concurrency, (data.profile as { outputTokens: number }).outputTokens],
      [1, 100],
    );
    const expected = estimate(resolveTarget(parseTargetId(t!.id), loadTables().tables), {
      inputTokens: t!.inputTokens,
      outputTokens: 100,
      concurrency: 1,
    });
    assert.equal(formatMs(t!.ttftMs.cold.p50), formatMs(expected.ttftMs.p50));
    assert.equal(formatUsd(t!.costPerCallUsd.cold), formatUsd(expected.costUsd));
  });

  it('refuses a path outside the workspace, a file that is not a prompt, and a malformed input', async () => {
    await assert.rejects(
      invokeAgentTool('promptLens_analyzePrompt', { path: '../outside.prompt' }),
      /outside the workspace/,
    );
    await assert.rejects(invokeAgentTool('promptLens_analyzePrompt', { path: 'README.md' }), /not a prompt file/);
    await assert.rejects(
      invokeAgentTool('promptLens_analyzePrompt', { path: 'support.prompt', extra: 1 }),
      /invalid input/,
    );
    await assert.rejects(
      invokeAgentTool('promptLens_analyzePrompt', { path: 'support.prompt', targets: ['openai/no-such-model'] }),
      /no-such-model/,
    );
  });

  it('compareTargets ranks as the Compare Targets view does', async () => {
    const editor = await openPrompt('support.prompt');
    const { data } = await invokeAgentTool('promptLens_compareTargets', { path: 'support.prompt', limit: 5 });
    await vscode.commands.executeCommand('promptLens.compareTargets', editor.document.uri);
    const api = await extensionApi();
    const state = await waitFor('the Compare view of support.prompt', () => {
      const s = api.compareState();
      return s?.promptName.endsWith('support.prompt') ? s : undefined;
    });
    const rows = data.rows as Array<{ target: string; meetsSlo: boolean }>;
    assert.equal(rows.length, 5);
    assert.deepEqual(
      rows.map((r) => [r.target, r.meetsSlo]),
      state.rows.slice(0, 5).map((r) => [r.target, r.meetsSlo]),
    );
    assert.equal(data.totalRows, state.rows.length);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('workspaceReport gives each file the TTFT the workspace report shows', async () => {
    const { data, text } = await invokeAgentTool('promptLens_workspaceReport', {});
    const markdown = await vscode.commands.executeCommand<string>('promptLens.showWorkspaceReport');
    const files = (data as AgentData & { files: Array<{ file: string; ttftMs: number }> }).files;
    const rag = files.find((f) => f.file === 'findings/rag-oversized.prompt');
    assert.ok(rag, JSON.stringify(files.map((f) => f.file)));
    const row = markdown.split('\n').find((l) => l.startsWith('| [findings/rag-oversized.prompt]'));
    assert.ok(row, markdown);
    assert.equal(row.split(' | ')[2], formatMs(rag.ttftMs), row);
    assert.match(text, /Findings \(\d+ of \d+, worst first\)/);
    assert.deepEqual(data.notes, [], 'a trusted workspace: nothing ignored');
  });
});
