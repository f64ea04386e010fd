import * as vscode from 'vscode';
import { countPrompt, type PromptCount } from '../../core/count';
import { parseTargetId, resolveTarget, targetIdForModel, targetTokenizerId, type ResolvedTarget, type Tables } from '../../core/estimate';
import { estimateTarget, type TargetEstimate } from '../../core/analysis/targetEstimates';
import type { WorkloadProfile } from '../../core/compare';
import { PrefixCacheAnalyser, updateInSlices } from '../../core/findings/prefixCache';
import { ragFindings, suppressed } from '../../core/findings/report';
import { parseFindingSettings, type FindingSettings } from '../../core/findings/settings';
import { findingTarget, type FindingTarget } from '../../core/findings/targets';
import type { Finding } from '../../core/findings/types';
import { PromptCounter } from '../../core/promptCounter';
import { parsePrompt } from '../../core/prompt/parse';
import type { ParsedPrompt } from '../../core/prompt/types';
import { resolveTokenizerId } from '../../core/tokenize/models';
import { getTokenizer } from '../../core/tokenize/registry';
import type { TextEdit } from '../../core/tokenize/incremental';
import type { TokenizerId } from '../../core/tokenize/types';
import type { Calibrations } from '../bench/calibrations';
import { readSettings, readWorkloadProfile } from '../config';
import { findPromptFiles, isPromptDocument } from '../promptDocuments';
import type { ExtensionTables } from '../tables';

interface WorkspaceAnalysis {
  analyser: PrefixCacheAnalyser;
  target: FindingTarget;
  scan: Promise<void>;
}

/** From this size, findings (tens of milliseconds per pass on a megabyte) wait for a pause in typing. */
const DEFERRED_FINDINGS_CHARS = 200_000;
const FINDINGS_IDLE_MS = 750;

function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Everything the editor surfaces show for one document version; computed once, read by all. */
export interface DocumentAnalysis {
  version: number;
  parsed: ParsedPrompt;
  /** Counted with the primary target's tokenizer. */
  count: PromptCount;
  /** Primary first. */
  targets: TargetEstimate[];
  findings: Finding[];
  /** The prefix a cache can serve and where it ends in the file. */
  cacheable?: { tokens: number; endOffset: number; source: 'shared with other prompts' | 'system prompt' };
  /** The front-matter model that chose the primary target, when it did. */
  frontMatterTarget?: string;
  /** The workload the estimates assume (settings, then the file's front matter). */
  profile: WorkloadProfile;
  /** Set when the file is over promptLens.maxFileBytes: nothing else is computed. */
  tooLarge?: string;
  problems: string[];
}

interface Config {
  tables: Tables;
  targets: ResolvedTarget[];
  findings: FindingSettings;
  variablePatterns: string[];
  maxFileBytes: number;
  problems: string[];
}

/**
 * The pipeline from document to what the surfaces show: parse → tokens (per target tokenizer,
 * incremental) → estimates → findings. Results are cached per document version; a workspace
 * prefix-cache analyser (on the primary target) is fed in slices so the host is never held long.
 */
export class PromptAnalyzer implements vscode.Disposable {
  private readonly counters = new Map<TokenizerId, PromptCounter>();
  private readonly results = new Map<string, DocumentAnalysis>();
  private readonly pendingEdits = new Map<string, TextEdit[]>();
  private config: Promise<Config> | undefined;
  /**
   * One workspace prefix-cache analyser per primary target in use (a prompt's front matter can pick
   * its own), so documents with different primaries never make each other rescan the workspace.
   */
  private readonly workspaces = new Map<string, WorkspaceAnalysis>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri | undefined>();
  /** Fires with a document's URI when its analysis changed, or undefined when all may have. */
  readonly onDidChange = this.emitter.event;
  private readonly findingsEmitter = new vscode.EventEmitter<vscode.TextDocument>();
  /** Fires when a large document's deferred findings are ready (the surfaces refresh it). */
  readonly onDidUpdateFindings = this.findingsEmitter.event;
  private readonly findingTimers = new Map<string, NodeJS.Timeout>();
  private readonly disposables: vscode.Disposable[] = [this.emitter, this.findingsEmitter];

  constructor(
    private readonly tables: ExtensionTables,
    private readonly calibrations: Calibrations,
  ) {
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('promptLens')) this.invalidate();
      }),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        const key = e.document.uri.toString();
        const edits = e.contentChanges.map((c) => ({ offset: c.rangeOffset, removed: c.rangeLength, inserted: c.text }));
        this.pendingEdits.set(key, [...(this.pendingEdits.get(key) ?? []), ...edits]);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
    );
  }

  /** Drops every cached result (settings, targets or calibrations changed). */
  invalidate(): void {
    this.config = undefined;
    this.results.clear();
    this.workspaces.clear();
    this.emitter.fire(undefined);
  }

  /** The analysis of this exact version, if computed. */
  cached(document: vscode.TextDocument): DocumentAnalysis | undefined {
    const result = this.results.get(document.uri.toString());
    return result?.version === document.version ? result : undefined;
  }

  /** The newest analysis of any version (stale while typing, fine for a hover between keystrokes). */
  latest(document: vscode.TextDocument): DocumentAnalysis | undefined {
    return this.results.get(document.uri.toString());
  }

  async analyze(document: vscode.TextDocument): Promise<DocumentAnalysis | undefined> {
    if (!isPromptDocument(document)) return undefined;
    const hit = this.cached(document);
    if (hit) return hit;
    const config = await this.configuration();
    const key = document.uri.toString();
    const text = document.getText();
    const version = document.version;
    if (Buffer.byteLength(text) > config.maxFileBytes) {
      const parsed = parsePrompt(document.fileName, '');
      const result: DocumentAnalysis = { version, parsed, count: countPrompt(parsed, getTokenizer('o200k_base')), targets: [], findings: [], profile: readWorkloadProfile(undefined, document.uri).profile, tooLarge: `over promptLens.maxFileBytes (${config.maxFileBytes.toLocaleString('en-US')} bytes): not tokenised`, problems: config.problems };
      this.results.set(key, result);
      return result;
    }
    const { profile, problems: profileProblems } = readWorkloadProfile(text, document.uri);
    const edits = this.pendingEdits.get(key) ?? [];
    this.pendingEdits.delete(key);

    const frontMatter = parsePrompt(document.fileName, text, { variablePatterns: config.variablePatterns }).settings.model;
    const targets = this.targetsFor(config, frontMatter);
    const primary = targets.list[0]!;
    const primaryTokenizer = resolveTokenizerId(targetTokenizerId(primary));
    const counts = new Map<TokenizerId, PromptCount>();
    for (const target of targets.list) {
      const id = resolveTokenizerId(targetTokenizerId(target));
      // Sliced: a large document's first count yields to the event loop instead of blocking the host.
      if (!counts.has(id)) counts.set(id, await this.counter(id, config).countAsync(key, document.fileName, text, version, edits));
    }
    if (document.version !== version) return this.results.get(key); // edited meanwhile: a newer analysis follows
    const parsed = this.counter(primaryTokenizer, config).parsed(key) ?? parsePrompt(document.fileName, text);
    const count = counts.get(primaryTokenizer)!;

    const workspace = this.workspaceAnalyser(config, primary);
    const file = vscode.workspace.asRelativePath(document.uri, false);
    const estimates = (cacheable: DocumentAnalysis['cacheable']) =>
      targets.list.map((target) =>
        estimateTarget({
          target,
          count: counts.get(resolveTokenizerId(targetTokenizerId(target)))!,
          cacheableTokens: cacheable?.tokens ?? 0,
          slo: profile,
          ...(this.calibrations.profile(target.id) ? { calibration: this.calibrations.profile(target.id)! } : {}),
        }),
      );
    const base = {
      version,
      parsed,
      count,
      ...(targets.fromFrontMatter ? { frontMatterTarget: targets.fromFrontMatter } : {}),
      profile,
      problems: [...config.problems, ...targets.problems, ...profileProblems, ...this.calibrations.staleNotes(targets.list.map((t) => t.id))],
    };
    const findingsPass = async (): Promise<DocumentAnalysis | undefined> => {
      // Each step is tens of milliseconds on a megabyte prompt: yield between them, and stop when a
      // newer version has arrived.
      await nextTick();
      if (document.version !== version) return undefined;
      workspace.analyser.update(file, text, parsed);
      await nextTick();
      const input = { file, text, parsed, analyser: workspace.analyser, tokenizer: getTokenizer(workspace.target.tokenizer), costModel: workspace.target.model, settings: config.findings };
      const rag = ragFindings(input).findings;
      await nextTick();
      const cache = workspace.analyser.findingsFor(file);
      await nextTick();
      const findings = suppressed(input, [rag, cache]);
      const cacheable = this.cacheablePrefix(workspace.analyser, file, parsed, count);
      return { ...base, targets: estimates(cacheable), findings, ...(cacheable ? { cacheable } : {}) };
    };

    if (text.length >= DEFERRED_FINDINGS_CHARS) {
      // Large prompt: counts and estimates now (status bar, hover), findings once typing pauses;
      // until then the previous findings and cacheable prefix stand.
      const previous = this.results.get(key);
      const result: DocumentAnalysis = { ...base, targets: estimates(previous?.cacheable), findings: previous?.findings ?? [], ...(previous?.cacheable ? { cacheable: previous.cacheable } : {}) };
      this.store(document, result);
      this.deferFindings(document, version, findingsPass);
      return result;
    }
    const result = await findingsPass();
    if (!result) return this.results.get(key);
    this.store(document, result);
    return result;
  }

  private store(document: vscode.TextDocument, result: DocumentAnalysis): void {
    this.results.set(document.uri.toString(), result);
    this.emitter.fire(document.uri);
  }

  /** Runs a large document's findings after FINDINGS_IDLE_MS without edits, then tells the surfaces. */
  private deferFindings(document: vscode.TextDocument, version: number, pass: () => Promise<DocumentAnalysis | undefined>): void {
    const key = document.uri.toString();
    clearTimeout(this.findingTimers.get(key));
    this.findingTimers.set(
      key,
      setTimeout(() => {
        this.findingTimers.delete(key);
        void pass().then((result) => {
          if (!result || document.version !== version) return;
          this.store(document, result);
          this.findingsEmitter.fire(document);
        });
      }, FINDINGS_IDLE_MS),
    );
  }

  forget(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    clearTimeout(this.findingTimers.get(key));
    this.findingTimers.delete(key);
    this.results.delete(key);
    this.pendingEdits.delete(key);
    for (const counter of this.counters.values()) counter.forget(key);
  }

  /** The workspace-wide prefix-cache analyser on the primary target (for the report command). */
  async workspaceReady(): Promise<{ analyser: PrefixCacheAnalyser; target: FindingTarget; settings: FindingSettings }> {
    const config = await this.configuration();
    const workspace = this.workspaceAnalyser(config, config.targets[0]!);
    await workspace.scan;
    return { analyser: workspace.analyser, target: workspace.target, settings: config.findings };
  }

  private counter(id: TokenizerId, config: Config): PromptCounter {
    let counter = this.counters.get(id);
    if (!counter) {
      counter = new PromptCounter({ tokenizer: id, variablePatterns: config.variablePatterns });
      this.counters.set(id, counter);
    }
    return counter;
  }

  private targetsFor(config: Config, frontMatterModel: string | undefined): { list: ResolvedTarget[]; fromFrontMatter?: string; problems: string[] } {
    if (!frontMatterModel) return { list: config.targets, problems: [] };
    const id = targetIdForModel(frontMatterModel, config.tables, config.targets[0]);
    if (!id) return { list: config.targets, problems: [] };
    const target = resolveTarget(parseTargetId(id), config.tables);
    return { list: [target, ...config.targets.filter((t) => t.id !== target.id)], fromFrontMatter: frontMatterModel, problems: [] };
  }

  /**
   * Shared prefix with other workspace prompts when there is one, else the system prompt itself (it
   * repeats on every call) — cut where the first dynamic part (a variable, a date, a name) begins.
   */
  private cacheablePrefix(analyser: PrefixCacheAnalyser, file: string, parsed: ParsedPrompt, count: PromptCount): DocumentAnalysis['cacheable'] {
    const member = analyser.groupOf(file)?.members.find((m) => m.file === file);
    if (member && member.cacheableTokens > 0) return { tokens: member.cacheableTokens, endOffset: member.prefixEnd, source: 'shared with other prompts' };
    const breaker = analyser.breakers(file)[0];
    if (breaker) return breaker.cacheableNow > 0 ? { tokens: breaker.cacheableNow, endOffset: breaker.range.start, source: 'system prompt' } : undefined;
    const system = parsed.messages[0];
    if (system && system.role === 'system' && parsed.messages.length > 1 && !parsed.variables.some((v) => v.range.start < system.range.end)) {
      return { tokens: count.messages[0]?.tokens ?? 0, endOffset: system.range.end, source: 'system prompt' };
    }
    return undefined;
  }

  private workspaceAnalyser(config: Config, primary: ResolvedTarget): WorkspaceAnalysis {
    const known = this.workspaces.get(primary.id);
    if (known) return known;
    const target = findingTarget(primary);
    const analyser = new PrefixCacheAnalyser({ tokenizer: getTokenizer(target.tokenizer), costModel: target.model, settings: config.findings.cache, rag: config.findings.rag });
    const scan = this.scanWorkspace(analyser, config).catch((error: unknown) => console.error('Prompt Latency Lens: workspace scan failed', error));
    const workspace = { analyser, target, scan };
    this.workspaces.set(primary.id, workspace);
    return workspace;
  }

  /**
   * Every prompt file in the workspace (open ones with their unsaved text), fed in slices; then the
   * open prompts are re-analysed once, against the complete workspace.
   */
  private async scanWorkspace(analyser: PrefixCacheAnalyser, config: Config): Promise<void> {
    const uris = await findPromptFiles();
    const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
    const sources: { file: string; text: string; parsed: ParsedPrompt }[] = [];
    for (const uri of uris) {
      try {
        const document = open.get(uri.toString());
        const bytes = document ? undefined : await vscode.workspace.fs.readFile(uri);
        const text = document ? document.getText() : new TextDecoder().decode(bytes);
        if ((bytes?.byteLength ?? Buffer.byteLength(text)) > config.maxFileBytes) continue;
        const file = vscode.workspace.asRelativePath(uri, false);
        sources.push({ file, text, parsed: parsePrompt(file, text, { variablePatterns: config.variablePatterns }) });
      } catch {
        /* unreadable: skipped, the report lists it */
      }
    }
    await updateInSlices(analyser, sources);
    if ([...this.workspaces.values()].some((w) => w.analyser === analyser)) {
      this.results.clear();
      this.emitter.fire(undefined);
    }
  }

  private configuration(): Promise<Config> {
    this.config ??= this.loadConfig();
    return this.config;
  }

  private async loadConfig(): Promise<Config> {
    const { settings, problems } = readSettings();
    const loaded = await this.tables.get();
    problems.push(...loaded.problems);
    const targets: ResolvedTarget[] = [];
    for (const id of settings.targets) {
      try {
        targets.push(resolveTarget(parseTargetId(id), loaded.tables));
      } catch (error) {
        problems.push(`promptLens.targets: ${(error as Error).message}`);
      }
    }
    if (targets.length === 0) targets.push(resolveTarget(parseTargetId('openai/gpt-4o'), loaded.tables));
    const raw = vscode.workspace.getConfiguration('promptLens');
    // VS Code hands settings objects out as proxies; the schema wants plain JSON data.
    const plain = (key: string): unknown => JSON.parse(JSON.stringify(raw.get(key) ?? null)) ?? undefined;
    const findings = parseFindingSettings({ disabled: plain('findings.disabled'), rag: plain('rag'), cache: plain('cache') });
    problems.push(...findings.problems.map((p) => `promptLens.${p}`));
    return { tables: loaded.tables, targets, findings: findings.settings, variablePatterns: settings.variablePatterns, maxFileBytes: settings.maxFileBytes, problems };
  }

  dispose(): void {
    for (const t of this.findingTimers.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}
