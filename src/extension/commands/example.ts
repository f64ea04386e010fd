import * as vscode from 'vscode';

/**
 * Completes the walkthrough's first step (its completion event is this context key), by a pulse: true, then
 * false again. VS Code creates its walkthroughs service only when a walkthrough is first shown, and a context
 * key already true then counts as seen without completing the step; left false, the next hover completes it.
 */
export async function markHoverShown(): Promise<void> {
  await vscode.commands.executeCommand('setContext', 'promptLens.hoverShown', true);
  await vscode.commands.executeCommand('setContext', 'promptLens.hoverShown', false);
}

/** Packaged with the walkthrough's media (.vscodeignore). */
export const EXAMPLE_PROMPT = 'media/walkthrough/example.prompty';

/**
 * "Open an Example Prompt": an untitled copy of the example shipped in the VSIX (a read-only file in
 * the extension folder would be a poor place to try edits), so a new user reaches a hover without a
 * prompt workspace of their own.
 */
export async function openExamplePrompt(extensionUri: vscode.Uri): Promise<vscode.TextEditor> {
  const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, EXAMPLE_PROMPT));
  const document = await vscode.workspace.openTextDocument({
    language: 'prompty',
    content: new TextDecoder().decode(bytes),
  });
  return vscode.window.showTextDocument(document);
}
