import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { countText } from '../../../src/core/count';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { EXTENSION_ID, extensionApi, hoverTexts, openPrompt, screenshot, waitFor } from '../helpers';

describe('foundation', () => {
  it('activates on a .prompt file', async () => {
    await openPrompt('support.prompt');
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, 'extension not installed');
    await waitFor('activation', () => (extension.isActive ? true : undefined));
    assert.equal(vscode.window.activeTextEditor?.document.languageId, 'prompt');
  });

  it('registers its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    const contributed = (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } }).contributes.commands;
    assert.ok(contributed.length > 0);
    for (const { command } of contributed) assert.ok(commands.includes(command), `${command} is not registered`);
  });

  it('hover shows the document token count the core computes', async () => {
    const editor = await openPrompt('support.prompt');
    const expected = countText(editor.document.getText(), getTokenizer('o200k_base')).contentTokens;
    const texts = await hoverTexts(editor.document.uri, new vscode.Position(1, 5));
    const hover = texts.find((t) => t.includes('Prompt Latency Lens'));
    assert.ok(hover, `no Prompt Latency Lens hover in ${JSON.stringify(texts)}`);
    assert.match(hover, new RegExp(`\\*\\*${expected.toLocaleString('en-US')} tok\\*\\*`));
  });

  it('status bar shows the active prompt count, including include-glob files', async () => {
    const api = await extensionApi();
    const editor = await openPrompt('prompts/summary.txt');
    const expected = countText(editor.document.getText(), getTokenizer('o200k_base')).contentTokens;
    const text = await waitFor('status bar text', () => (api.statusBarText().includes(`${expected.toLocaleString("en-US")} tok`) ? api.statusBarText() : undefined));
    assert.match(text, /tok$/);
  });

  it('has no hover on a file that is not a prompt', async () => {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'README.md'));
    const texts = await hoverTexts(document.uri, new vscode.Position(0, 2));
    assert.ok(!texts.some((t) => t.includes('Prompt Latency Lens')));
  });

  it('screenshot: the workbench with the hover open', async () => {
    const editor = await openPrompt('support.prompt');
    const position = new vscode.Position(2, 10);
    editor.selection = new vscode.Selection(position, position);
    await vscode.commands.executeCommand('editor.action.showHover');
    await new Promise((r) => setTimeout(r, 800));
    await screenshot('hover');
  });
});
