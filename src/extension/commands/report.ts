import { mkdir } from 'node:fs/promises';
import { posix } from 'node:path';
import * as vscode from 'vscode';
import { showWarning } from '../notify';
import { reportMarkdown } from '../../core/findings/reportMarkdown';
import type { PromptAnalyzer } from '../analysis/analyzer';
import { writeAtomically } from '../bench/history';
import { readSettings } from '../settings';
import { readWorkspacePrompts } from '../promptDocuments';

/**
 * "Show Workspace Report": every prompt file (open ones with their unsaved text) on the primary
 * target, written to the extension's storage and shown as a Markdown preview whose (relative) links
 * open each file at each finding; built afresh from the current settings and primary target each run.
 * Returns the Markdown.
 */
export async function showWorkspaceReport(analyzer: PromptAnalyzer, storage: vscode.Uri): Promise<string | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) {
    void showWarning(vscode.l10n.t('Prompt Latency Lens: open a folder to report on its prompts.'));
    return undefined;
  }
  const inputs = await readWorkspacePrompts(readSettings().settings.maxFileBytes);
  const report = await analyzer.report(inputs);
  // A file, not an untitled document: closing the preview never asks to save anything.
  const file = vscode.Uri.joinPath(storage, 'workspace-report.md');
  // Links relative to the report file: the Markdown preview opens those (at the #L line) but renders file: URIs
  // as plain text.
  const markdown = reportMarkdown(report, (path, line) => {
    const relative = posix.relative(posix.dirname(file.path), vscode.Uri.joinPath(folder.uri, path).path);
    return `${relative.split('/').map(encodeURIComponent).join('/')}#L${line}`;
  });
  await writeReport(file, markdown);
  await vscode.commands.executeCommand('markdown.showPreview', file);
  return markdown;
}

/**
 * Writes the report. When an earlier report is still open (its preview keeps the document), the new text
 * goes through that document and is saved: VS Code does not watch files outside the workspace, so a
 * file replaced on disk would leave the preview showing the previous run (another target's report).
 */
async function writeReport(file: vscode.Uri, markdown: string): Promise<void> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.toString());
  if (!open) {
    await mkdir(vscode.Uri.joinPath(file, '..').fsPath, { recursive: true });
    await writeAtomically(file.fsPath, markdown);
    return;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.replace(file, new vscode.Range(0, 0, open.lineCount, 0), markdown);
  if (!(await vscode.workspace.applyEdit(edit)) || !(await open.save()))
    throw new Error(`could not update the open report ${file.fsPath}`);
}
