import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { cleanWorkbench, extensionApi, hoverTexts, openPrompt, screenshot, waitFor } from '../helpers';

/** The default primary target is llama-3.1-70b, counted with the Llama 3 tokenizer and its model's chat template. */
const llama3 = getTokenizer('llama3');

async function statusShowsCountOf(relative: string): Promise<{ document: vscode.TextDocument; tokens: number }> {
  const api = await extensionApi();
  const editor = await openPrompt(relative);
  const parsed = parsePrompt(editor.document.fileName, editor.document.getText());
  const tokens = countPrompt(parsed, llama3, undefined, 'llama-3.1-70b').inputTokens;
  await waitFor(`status bar count of ${relative}`, () =>
    api.statusBarText().startsWith(`$(pulse) ${tokens.toLocaleString('en-US')} tok · TTFT `) ? true : undefined,
  );
  return { document: editor.document, tokens };
}

describe('instruction files', () => {
  it('an .instructions.md and an .agent.md are prompt files: status bar and hover show their counts', async () => {
    await cleanWorkbench();
    for (const relative of ['.github/instructions/typescript.instructions.md', '.github/agents/reviewer.agent.md']) {
      const { document, tokens } = await statusShowsCountOf(relative);
      // The whole body is one system message, sent as written (no template variables).
      const parsed = parsePrompt(document.fileName, document.getText());
      assert.deepEqual(
        parsed.messages.map((m) => m.role),
        ['system'],
      );
      const texts = await hoverTexts(document.uri, document.positionAt(parsed.messages[0]!.range.start + 3));
      const hover = texts.find((t) => t.includes('Prompt Latency Lens'));
      assert.ok(hover?.includes(`prompt **${tokens.toLocaleString('en-US')}** tokens`), `${relative}: ${hover}`);
    }
  });

  it('the status bar tooltip shows the always-on instructions: tokens, TTFT and cost per request and per 1,000', async () => {
    const api = await extensionApi();
    // copilot-instructions.md and style.instructions.md (applyTo '**') are always on; typescript's is not.
    const alwaysOn = ['.github/copilot-instructions.md', '.github/instructions/style.instructions.md'];
    let expected = 0;
    for (const relative of alwaysOn) {
      const document = await vscode.workspace.openTextDocument(
        vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, relative),
      );
      const parsed = parsePrompt(document.fileName, document.getText());
      expected += parsed.messages.reduce((n, m) => n + llama3.count(m.rendered), 0);
    }
    await statusShowsCountOf('.github/instructions/style.instructions.md');
    const tooltip = await waitFor('always-on instructions in the tooltip', () =>
      api.statusBarTooltip().includes('**Always-on instructions** (2 files') ? api.statusBarTooltip() : undefined,
    );
    assert.ok(tooltip.includes(`: ${expected.toLocaleString('en-US')} tokens`), tooltip);
    assert.match(tooltip, /\| cold \| \+[\d.]+ m?s \| \$[\d.]+ \| \$[\d.]+ \|/);
    assert.match(tooltip, /\| warm \([\d,]+ cached\) \| \+[\d.]+ m?s \| \$[\d.]+ \| \$[\d.]+ \|/);
    assert.match(tooltip, /natural cacheable prefix/);
    await screenshot('instructions');
  });

  it('the workspace report lists the always-on instructions', async () => {
    const markdown = await vscode.commands.executeCommand<string>('promptLens.showWorkspaceReport');
    assert.match(markdown, /## Always-on instructions\n\nAlways-on instructions: [\d,]+ tokens in 2 files/);
    assert.match(markdown, /\| \[\.github\/copilot-instructions\.md\]\((\.\.\/)+[^)]*\) \| [\d,]+ \|/);
    assert.match(markdown, /typescript\.instructions\.md\]\([^)]*\) \| [\d,]+ \| when files match /);
    await cleanWorkbench();
  });
});
