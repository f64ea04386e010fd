import * as vscode from 'vscode';
import { formatOf } from '../../core/prompt/formats';
import type { FindingCode, RelatedLocation } from '../../core/findings/types';
import { DIAGNOSTIC_SOURCE, relatedLocation, type PromptDiagnostics } from './diagnostics';

const SETTING_OF: Partial<Record<FindingCode, string>> = {
  'rag-budget': 'promptLens.rag.maxTokens',
  'rag-duplicate': 'promptLens.rag.duplicateSimilarity',
  'prefix-cache': 'promptLens.cache.minSharedTokens',
  'cache-near-miss': 'promptLens.cache.nearMissMaxGap',
  'cache-breaker': 'promptLens.findings.disabled',
  'context-window': 'promptLens.targets',
};

/** Quick fixes on our diagnostics: open the setting, suppress in this file, and per finding kind. */
export class PromptCodeActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly diagnostics: PromptDiagnostics) {}

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE)) {
      const code = String(diagnostic.code) as FindingCode;
      const finding = this.diagnostics.findingOf(document, diagnostic);
      if (code === 'prefix-cache' && finding?.relatedFiles?.length) {
        actions.push(
          command(
            vscode.l10n.t('Show the {0} prompts sharing this prefix', finding.relatedFiles.length + 1),
            'promptLens.showRelatedFiles',
            [finding.relatedFiles],
            diagnostic,
          ),
        );
      }
      if (code === 'cache-near-miss' && finding?.relatedFiles?.length) {
        actions.push(
          command(
            vscode.l10n.t('Show the almost-matching prompt'),
            'promptLens.showRelatedFiles',
            [finding.relatedFiles],
            diagnostic,
          ),
        );
      }
      if (code === 'cache-breaker' && typeof finding?.data.moveToOffset === 'number') {
        actions.push(
          command(
            vscode.l10n.t('Show where the dynamic part could go (after the static text)'),
            'promptLens.revealOffset',
            [document.uri, finding.data.moveToOffset],
            diagnostic,
          ),
        );
      }
      const setting = SETTING_OF[code];
      if (setting)
        actions.push(
          command(vscode.l10n.t('Open setting {0}', setting), 'workbench.action.openSettings', [setting], diagnostic),
        );
      const pragma = pragmaEdit(document, code);
      if (pragma) {
        const action = new vscode.CodeAction(
          vscode.l10n.t('Suppress {0} in this file', code),
          vscode.CodeActionKind.QuickFix,
        );
        action.edit = pragma;
        action.diagnostics = [diagnostic];
        actions.push(action);
      }
    }
    return actions;
  }
}

function command(title: string, id: string, args: unknown[], diagnostic: vscode.Diagnostic): vscode.CodeAction {
  const action = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  action.command = { title, command: id, arguments: args };
  action.diagnostics = [diagnostic];
  return action;
}

/**
 * Inserts the documented pragma (`prompt-lens-disable CODE`) in the comment syntax of the file:
 * a YAML comment inside front matter or a YAML file, else an HTML comment on the first line.
 * JSON has no comments: use promptLens.findings.disabled there.
 */
export function pragmaEdit(
  document: vscode.TextDocument,
  code: FindingCode | 'parse-error',
): vscode.WorkspaceEdit | undefined {
  if (code === 'parse-error') return undefined;
  const format = formatOf(document.fileName);
  if (format === 'chat-json') return undefined;
  const edit = new vscode.WorkspaceEdit();
  const hasFrontMatter = document.lineCount > 1 && document.lineAt(0).text.trim() === '---';
  if (format === 'prompt-yaml') edit.insert(document.uri, new vscode.Position(0, 0), `# prompt-lens-disable ${code}\n`);
  else if (hasFrontMatter) edit.insert(document.uri, new vscode.Position(1, 0), `# prompt-lens-disable ${code}\n`);
  else edit.insert(document.uri, new vscode.Position(0, 0), `<!-- prompt-lens-disable ${code} -->\n`);
  return edit;
}

export function registerFindingCommands(): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('promptLens.showRelatedFiles', async (related: RelatedLocation[]) => {
      const pick = await vscode.window.showQuickPick(
        related.map((r) => ({ label: r.file, description: r.message, r })),
        { placeHolder: vscode.l10n.t('Prompts that share this prefix') },
      );
      if (!pick) return;
      const located = relatedLocation(pick.r);
      await vscode.window.showTextDocument(located.uri, {
        selection: new vscode.Range(located.range.start, located.range.start),
      });
    }),
    vscode.commands.registerCommand('promptLens.revealOffset', async (uri: vscode.Uri, offset: number) => {
      const document = await vscode.workspace.openTextDocument(uri);
      const position = document.positionAt(offset);
      await vscode.window.showTextDocument(document, { selection: new vscode.Range(position, position) });
    }),
  ];
}
