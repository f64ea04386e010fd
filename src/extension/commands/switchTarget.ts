import * as vscode from 'vscode';
import { describeTargetChange } from '../../core/analysis/targetChange';
import { parseTargetId, resolveTarget } from '../../core/estimate';
import { cacheRuleOf } from '../../core/estimate/cacheRule';
import type { DocumentAnalysis, PromptAnalyzer } from '../analysis/analyzer';
import { showInfo } from '../notify';
import { readSettings } from '../settings';
import type { ExtensionTables } from '../tables';
import { setPrimaryTarget } from './targets';

/** How long to wait for the analysis on the new target before saying what changed without it. */
const SETTLE_LIMIT_MS = 30_000;

/**
 * Makes a target primary from Compare's "Use" or Select Target…, and says what changed for the prompt in view:
 * the cold TTFT and cost before and after, and which findings stay, go (and why) or appear.
 */
export class TargetSwitcher {
  /** The last notification text (the integration tests read it). */
  lastMessage: string | undefined;

  constructor(
    private readonly tables: ExtensionTables,
    private readonly analyzer: PromptAnalyzer,
  ) {}

  async use(id: unknown, uri?: vscode.Uri): Promise<string | undefined> {
    const document = uri
      ? vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString())
      : vscode.window.activeTextEditor?.document;
    const before = document ? await this.analyzer.settled(document) : undefined;
    const set = await setPrimaryTarget(this.tables, id);
    if (!set) return undefined;
    const { engine, scope } = readSettings().settings;
    const target = resolveTarget(parseTargetId(set), (await this.tables.get()).tables, { engine, scope });
    const resolved = target.id;
    const after = document ? await this.analysisOn(document, resolved) : undefined;
    const primary = after?.targets[0];
    let text: string;
    if (!after || !primary) text = `Primary target is now ${resolved}.`;
    else if (primary.id !== resolved)
      text = `Primary target in the settings is now ${resolved}; this prompt's front matter (model ${after.frontMatterTarget ?? '?'}) keeps ${primary.id}, so its numbers and findings are unchanged.`;
    else
      text = describeTargetChange(
        before?.targets[0] ? { target: before.targets[0], findings: before.findings, cacheRule: undefined } : undefined,
        { target: primary, findings: after.findings, cacheRule: cacheRuleOf(target) },
      ).text;
    this.lastMessage = text;
    void showInfo(vscode.l10n.t('Prompt Latency Lens: {0}', text));
    return set;
  }

  /** The settled analysis once it is made with `primary` as the settings' primary target. */
  private async analysisOn(document: vscode.TextDocument, primary: string): Promise<DocumentAnalysis | undefined> {
    const deadline = Date.now() + SETTLE_LIMIT_MS;
    while (Date.now() < deadline) {
      const changed = nextChange(this.analyzer, deadline - Date.now());
      const analysis = await this.analyzer.settled(document);
      if (analysis?.configuredPrimary === primary) return analysis;
      await changed; // the settings listener has not reached the analyzer yet
    }
    return undefined;
  }
}

function nextChange(analyzer: PromptAnalyzer, limitMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, limitMs);
    const listener = analyzer.onDidChange(done);
    function done() {
      clearTimeout(timer);
      listener.dispose();
      resolve();
    }
  });
}
