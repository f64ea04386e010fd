import * as vscode from 'vscode';
import { parseFileName } from '../promptDocuments';
import { formatOf } from '../../core/prompt/formats';
import type { Finding, FindingCode, RelatedLocation } from '../../core/findings/types';
import { formatCount } from '../../core/format';
import { showInfo } from '../notify';
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
      if (code === 'cache-breaker' && finding && typeof finding.data.moveToOffset === 'number') {
        actions.push(
          command(
            vscode.l10n.t('Show where the dynamic part could go (after the static text)'),
            'promptLens.showBreakerMove',
            [document.uri, breakerMove(document, finding)],
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

/** What "Show where the dynamic part could go" highlights and says. */
export interface BreakerMove {
  /** The dynamic part (offsets). */
  dynamic: { start: number; end: number };
  /** The static text it holds out of the cache, which should come before it (offsets, whitespace trimmed). */
  staticText: { start: number; end: number };
  explanation: string;
}

function breakerMove(document: vscode.TextDocument, finding: Finding): BreakerMove {
  const text = document.getText();
  const moveTo = finding.data.moveToOffset as number;
  let start = finding.range.end;
  let end = Math.max(start, moveTo);
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  const dynamic = text.slice(finding.range.start, finding.range.end);
  const shown = dynamic.length > 40 ? `${dynamic.slice(0, 39)}…` : dynamic;
  const n = (key: string) => formatCount(Number(finding.data[key] ?? 0));
  return {
    dynamic: { start: finding.range.start, end: finding.range.end },
    staticText: { start, end },
    explanation:
      `“${shown}” changes per request, so the ${n('staticTokensAfter')} static tokens selected after it are never a cache hit. ` +
      `Put it${Number(finding.data.dynamicBefore ?? 0) > 0 ? ` and the ${n('dynamicBefore')} dynamic part(s) before it` : ''} after them (where the selection ends): ${n('cacheableIfMoved')} tokens cacheable instead of ${n('cacheableNow')}.`,
  };
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
  const format = formatOf(parseFileName(document));
  if (format === 'chat-json') return undefined;
  const edit = new vscode.WorkspaceEdit();
  const hasFrontMatter = document.lineCount > 1 && document.lineAt(0).text.trim() === '---';
  if (format === 'prompt-yaml') edit.insert(document.uri, new vscode.Position(0, 0), `# prompt-lens-disable ${code}\n`);
  else if (hasFrontMatter) edit.insert(document.uri, new vscode.Position(1, 0), `# prompt-lens-disable ${code}\n`);
  else edit.insert(document.uri, new vscode.Position(0, 0), `<!-- prompt-lens-disable ${code} -->\n`);
  return edit;
}

export function registerFindingCommands(): vscode.Disposable[] {
  const marks = new BreakerMarks();
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
    vscode.commands.registerCommand('promptLens.showBreakerMove', (uri: vscode.Uri, move: BreakerMove) =>
      marks.show(uri, move),
    ),
    marks,
  ];
}

/**
 * The breaker quick fix's marks: the static text selected, the dynamic part outlined, an inline pointer where it
 * could go, each with the explanation as hover text; gone at the next edit or when another editor is shown.
 */
class BreakerMarks implements vscode.Disposable {
  private readonly dynamic = vscode.window.createTextEditorDecorationType({
    border: '1px dashed',
    borderColor: new vscode.ThemeColor('editorWarning.foreground'),
  });
  private readonly target = vscode.window.createTextEditorDecorationType({
    after: { color: new vscode.ThemeColor('editorWarning.foreground'), margin: '0 0 0 1em', fontStyle: 'italic' },
  });
  private shownIn: vscode.TextEditor | undefined;
  private readonly listeners = [
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === this.shownIn?.document && e.contentChanges.length > 0) this.clear();
    }),
    vscode.window.onDidChangeActiveTextEditor((e) => {
      if (e !== this.shownIn) this.clear();
    }),
  ];

  async show(uri: vscode.Uri, move: BreakerMove): Promise<void> {
    const document = await vscode.workspace.openTextDocument(uri);
    const at = (offset: number) => document.positionAt(offset);
    const hasStatic = move.staticText.end > move.staticText.start;
    const selected = hasStatic
      ? new vscode.Selection(at(move.staticText.start), at(move.staticText.end))
      : new vscode.Selection(at(move.dynamic.start), at(move.dynamic.end));
    const editor = await vscode.window.showTextDocument(document, { selection: selected });
    editor.revealRange(selected, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    this.clear();
    this.shownIn = editor;
    const hoverMessage = new vscode.MarkdownString().appendText(move.explanation);
    editor.setDecorations(this.dynamic, [
      { range: new vscode.Range(at(move.dynamic.start), at(move.dynamic.end)), hoverMessage },
    ]);
    if (hasStatic)
      editor.setDecorations(this.target, [
        {
          range: new vscode.Range(selected.end, selected.end),
          hoverMessage,
          renderOptions: { after: { contentText: '◀ the dynamic part could go here' } },
        },
      ]);
    void showInfo(vscode.l10n.t('Prompt Latency Lens: {0}', move.explanation));
  }

  private clear(): void {
    this.shownIn?.setDecorations(this.dynamic, []);
    this.shownIn?.setDecorations(this.target, []);
    this.shownIn = undefined;
  }

  dispose(): void {
    this.clear();
    this.dynamic.dispose();
    this.target.dispose();
    for (const l of this.listeners) l.dispose();
  }
}
