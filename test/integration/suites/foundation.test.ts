import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { countPrompt } from '../../../src/core/count';
import { decodeFileText } from '../../../src/core/prompt/fileText';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import {
  cleanWorkbench,
  EXTENSION_ID,
  extensionApi,
  hoverTexts,
  openPrompt,
  screenshot,
  waitFor,
  workspaceFile,
} from '../helpers';

const LLAMA = 'llama-3.1-70b';
/** The default primary target is llama-3.1-70b: the Llama 3 tokenizer, its model's chat template. */
function expectedTokens(document: vscode.TextDocument): number {
  return countPrompt(parsePrompt(document.fileName, document.getText()), getTokenizer('llama3'), undefined, LLAMA)
    .inputTokens;
}

describe('foundation', () => {
  it('activates on a .prompt file', async () => {
    await openPrompt('support.prompt');
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, 'extension not installed');
    await waitFor('activation', () => (extension.isActive ? true : undefined));
    // Our own language, not VS Code's Markdown-based "prompt" (docs/editor-support.md).
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'prompt-lens-plain');
    // Activation itself loads no vocabulary and starts no worker; analysis starts the worker.
    const api = await extensionApi();
    assert.deepEqual(api.activation.vocabularies, []);
    assert.equal(api.activation.workerRunning, false);
  });

  it('registers its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    const contributed = (
      vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } }
    ).contributes.commands;
    assert.ok(contributed.length > 5);
    for (const { command } of contributed) assert.ok(commands.includes(command), `${command} is not registered`);
  });

  it('hover shows the prompt token count the core computes', async () => {
    const editor = await openPrompt('support.prompt');
    const expected = expectedTokens(editor.document);
    const texts = await hoverTexts(editor.document.uri, new vscode.Position(1, 5));
    const hover = texts.find((t) => t.includes('Prompt Latency Lens'));
    assert.ok(hover, `no Prompt Latency Lens hover in ${JSON.stringify(texts)}`);
    assert.ok(hover.includes(`prompt **${expected.toLocaleString('en-US')}** tokens`), hover);
    assert.equal((await extensionApi()).analysisWorkerRunning(), true, 'counted in the analysis worker');
  });

  it("hover and CodeLens show the chat template's own tokens and the arguments it assumed", async () => {
    const editor = await openPrompt('support.prompt');
    const parsed = parsePrompt(editor.document.fileName, editor.document.getText());
    const count = countPrompt(parsed, getTokenizer('llama3'), undefined, LLAMA);
    assert.ok(count.templateTokens! > 0, 'Llama 3.1 renders a template');
    const added = `template: +${count.templateTokens!.toLocaleString('en-US')}`;
    const texts = await hoverTexts(editor.document.uri, new vscode.Position(1, 5));
    const hover = texts.find((t) => t.includes('Prompt Latency Lens')) ?? '';
    assert.ok(hover.includes(`content + ${added}, \`llama3\``), hover);
    assert.ok(hover.includes('Llama 3.1 / 3.3 Instruct chat template, assumed add\\_generation\\_prompt=true'), hover);
    assert.ok(hover.includes("date\\_string unset (the template's default date)"), hover);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>(
      'vscode.executeCodeLensProvider',
      editor.document.uri,
    );
    const lens = lenses.find((l) => l.command?.title === `${added} tok`);
    assert.ok(lens, JSON.stringify(lenses.map((l) => l.command?.title)));
    assert.match(lens.command?.tooltip ?? '', /assumed add_generation_prompt=true/);
  });

  it('status bar shows the active prompt count, including include-glob files', async () => {
    const api = await extensionApi();
    const editor = await openPrompt('prompts/summary.txt');
    const expected = expectedTokens(editor.document);
    const text = await waitFor('status bar text', () =>
      api.statusBarText().includes(`${expected.toLocaleString('en-US')} tok · TTFT `) ? api.statusBarText() : undefined,
    );
    // The headline is the cold TTFT; a warm figure only beside it, labelled.
    assert.match(text, /tok · TTFT [\d.]+ m?s cold( · [\d.]+ m?s warm)? · \$[\d.]+\/call$/);
  });

  it("a file's leading byte-order mark is not counted: the editor counts the text the CLI reads", async () => {
    const uri = workspaceFile('bom-check.prompt');
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Hello there.\nuser:\nHi')]);
    await vscode.workspace.fs.writeFile(uri, bytes);
    try {
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      // prompt-lens count reads files through decodeFileText; VS Code drops the BOM the same way.
      assert.equal(editor.document.getText(), decodeFileText(bytes));
      const expected = expectedTokens(editor.document);
      const count = (text: string) =>
        countPrompt(parsePrompt(uri.fsPath, text), getTokenizer('llama3'), undefined, LLAMA);
      // The content count (Llama's template trims each message, which would drop a BOM from the billed count).
      const content = count(editor.document.getText()).contentTokens;
      assert.notEqual(count(`\uFEFF${editor.document.getText()}`).contentTokens, content, 'the BOM would change it');
      const texts = await hoverTexts(uri, new vscode.Position(0, 2));
      const hover = texts.find((t) => t.includes('Prompt Latency Lens')) ?? '';
      assert.ok(hover.includes(`prompt **${expected.toLocaleString('en-US')}** tokens`), hover);
      assert.ok(hover.includes(`(${content.toLocaleString('en-US')} content + template: +`), hover);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(uri);
    }
  });

  it('has no hover on a file that is not a prompt', async () => {
    const document = await vscode.workspace.openTextDocument(
      vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'README.md'),
    );
    const texts = await hoverTexts(document.uri, new vscode.Position(0, 2));
    assert.ok(!texts.some((t) => t.includes('Prompt Latency Lens')));
  });

  it('screenshot: the workbench with the hover open', async () => {
    await cleanWorkbench();
    const editor = await openPrompt('support.prompt');
    await (await extensionApi()).analysis(editor.document);
    const position = new vscode.Position(2, 10);
    editor.selection = new vscode.Selection(position, position);
    await vscode.commands.executeCommand('editor.action.showHover');
    await new Promise((r) => setTimeout(r, 1000));
    await screenshot('hover');
  });
});
