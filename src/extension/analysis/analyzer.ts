import { setImmediate as nextTick } from 'node:timers/promises';
import type { Worker } from 'node:worker_threads';
import * as vscode from 'vscode';
import { showError } from '../notify';
import { z } from 'zod';
import { log } from '../log';
import type { Cacheable, CountResult, EditResult, EngineConfig } from '../../core/analysis/engine';
import { estimateTarget, type TargetEstimate } from '../../core/analysis/targetEstimates';
import type { BenchMessages } from '../../core/bench/benchPrompt';
import type { CompareResult, SloSettings, WorkloadProfile } from '../../core/compare';
import { correctCount } from '../../core/calibrate/tokenCorrection';
import type { PromptCount } from '../../core/count';
import {
  parseTargetId,
  resolveTarget,
  targetCountKey,
  targetModelId,
  targetTokenizer,
  type CacheTtl,
  type ResolvedTarget,
} from '../../core/estimate';
import type { InstructionsBudget } from '../../core/findings/instructions';
import type { PromptReport, ReportFileInput } from '../../core/findings/report';
import type { Finding } from '../../core/findings/types';
import { parsePlain } from '../../core/prompt/plain';
import { configuredTargets } from '../../core/settings/targets';
import { promptOutline, type PromptOutline } from '../../core/prompt/outline';
import type { TextEdit } from '../../core/tokenize/incremental';
import type { TokenizerId } from '../../core/tokenize/types';
import type { Calibrations } from '../bench/calibrations';
import { readSettings, readWorkloadProfile } from '../settings';
import { KeyedTimers } from '../keyedTimers';
import { isPromptDocument, workspacePromptSources, parseFileName, textLength } from '../promptDocuments';
import type { ExtensionTables } from '../tables';
import { EngineClient } from './engineClient';
import { batches, packSources, sourceSize } from '../../core/analysis/batches';

/**
 * The workspace scan goes to the worker in messages of about this many characters (bytes, for files read from disk),
 * one after the other: copying a whole workspace into one message held the extension host (and every hover) for
 * seconds — 1.9 s for 2,000 prompts of 20 KB at load ≈ 22 (the probe of `npm run bench:editor`). Files from disk
 * travel as bytes, transferred (see PackedSources).
 */
const SCAN_BATCH_CHARS = 1_000_000;
/**
 * The workspace scan starts this long after the first count that asks for it, so its start (the file search, reading
 * the files) does not fall on the moment the prompt's first figures reach the surfaces. In windows already in use
 * (the hover probe, PROMPT_LENS_PROBE_WARM=1, two alternated pairs of three prompts) the hovers' time over 50 ms after
 * the first 0.7 s went from 140–600 ms a prompt to 60–215 ms, in fresh windows from 430–2,140 to 570–1,120 ms (every
 * hover p99 151 and 157 ms against 221 and 272); the findings against the whole workspace come that much later.
 */
const SCAN_START_DELAY_MS = 1500;

/** From this size, findings (tens of milliseconds per pass on a megabyte) wait for a pause in typing. */
const DEFERRED_FINDINGS_CHARS = 200_000;
const FINDINGS_IDLE_MS = 750;

/** Everything the editor surfaces show for one document version; computed once, read by all. */
export interface DocumentAnalysis {
  version: number;
  /** Roles, ranges, variables and parse errors; the messages' texts stay in the worker (`benchMessages`). */
  parsed: PromptOutline;
  /** Counted with the primary target's tokenizer. */
  count: PromptCount;
  /** Primary first. */
  targets: TargetEstimate[];
  findings: Finding[];
  /** The prefix a cache can serve and where it ends in the file. */
  cacheable?: Cacheable;
  /** The workspace's always-on instructions on the primary target (once findings have run). */
  instructions?: InstructionsBudget;
  /**
   * Why `findings`, `cacheable` (so the warm figures) and `instructions` are not yet this version's against the
   * whole workspace: `running` — this version's findings are still being computed (what is shown is an earlier
   * version's, or nothing); `scan` — computed before the workspace scan finished. Counts and cold figures are final.
   */
  findingsPending?: 'running' | 'scan';
  /** The front-matter model that chose the primary target, when it did. */
  frontMatterTarget?: string;
  /** The primary target the settings name (promptLens.targets[0]), which front matter may override. */
  configuredPrimary?: string;
  /** The workload the estimates assume (settings, then the file's front matter). */
  profile: WorkloadProfile;
  /** Set when the file is over promptLens.maxFileBytes: nothing else is computed. */
  tooLarge?: string;
  problems: string[];
}

/** What an analysis says before its estimates and findings: counts, parse, workload, problems. */
type AnalysisBase = Omit<DocumentAnalysis, 'targets' | 'findings' | 'instructions' | 'cacheable' | 'findingsPending'>;

interface Config {
  engine: EngineConfig;
  maxFileBytes: number;
  /** promptLens.cache.ttl: the TTL cache writes are priced at. */
  cacheTtl: CacheTtl;
  problems: string[];
}

/**
 * The pipeline from document to what the surfaces show. Parsing, tokenising (incremental, per
 * target tokenizer) and findings run in the analysis worker (core/analysis/engine.ts), so the host
 * never loads a vocabulary or tokenises a megabyte; here: settings, estimates (microseconds) and a
 * result cache per document version, read by every surface.
 */
export class PromptAnalyzer implements vscode.Disposable {
  private readonly engine: EngineClient;
  private readonly results = new Map<string, DocumentAnalysis>();
  /** The counts and resolved targets each analysis was estimated from (an agent may ask for other targets). */
  private readonly countedOf = new WeakMap<DocumentAnalysis, CountResult>();
  private readonly pendingEdits = new Map<string, TextEdit[]>();
  /** Documents whose text (or edits up to their latest version) the worker was sent: only edits follow. */
  private readonly sent = new Set<string>();
  /** One request per document version in flight (a hover and a refresh share it). */
  private readonly inflight = new Map<string, { version: number; result: Promise<DocumentAnalysis | undefined> }>();
  private config: Promise<Config> | undefined;
  /** Bumped when settings change or the worker restarts: results begun before are not kept. */
  private generation = 0;
  /** A scan waiting to start does not start once the analyzer is disposed. */
  private disposed = false;
  /** Primary targets whose workspace scan the engine has been given, by target id. */
  private readonly scans = new Map<string, Promise<void>>();
  /** Primary targets whose workspace scan has finished (findings from then on see every prompt). */
  private readonly scanned = new Set<string>();
  private readonly emitter = new vscode.EventEmitter<vscode.Uri | undefined>();
  /** Fires with a document's URI when its analysis changed, or undefined when all may have. */
  readonly onDidChange = this.emitter.event;
  private readonly findingsEmitter = new vscode.EventEmitter<vscode.TextDocument>();
  /** Fires when a large document's deferred findings are ready (the surfaces refresh it). */
  readonly onDidUpdateFindings = this.findingsEmitter.event;
  private readonly findingTimers = new KeyedTimers();
  private readonly disposables: vscode.Disposable[] = [this.emitter, this.findingsEmitter];

  constructor(
    private readonly tables: ExtensionTables,
    private readonly calibrations: Calibrations,
    spawnWorker: () => Worker,
  ) {
    this.engine = new EngineClient(spawnWorker, {
      onExit: (reason, restarting) => {
        log.error(`${reason}${restarting ? '; restarting it' : ''}`);
        if (restarting) this.invalidate();
        else
          void showError(
            vscode.l10n.t('Prompt Latency Lens: {0}. Token counts and estimates are unavailable.', reason),
          );
      },
    });
    this.disposables.push(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length === 0) return;
        const key = e.document.uri.toString();
        const edits = e.contentChanges.map((c) => ({
          offset: c.rangeOffset,
          removed: c.rangeLength,
          inserted: c.text,
        }));
        this.pendingEdits.set(key, [...(this.pendingEdits.get(key) ?? []), ...edits]);
      }),
      vscode.workspace.onDidCloseTextDocument((d) => this.forget(d)),
    );
  }

  /** Whether the analysis worker is running (activation must not start it). */
  get workerRunning(): boolean {
    return this.engine.running;
  }

  /** How many calls of each kind were sent to the worker so far. */
  workerCalls(): Record<string, number> {
    return { ...this.engine.calls };
  }

  /** For tests of the `needsText` fallback: the worker forgets the document while `sent` still says it holds it. */
  dropWorkerText(document: vscode.TextDocument): Promise<void> {
    return this.engine.call('forget', document.uri.toString());
  }

  /** Drops every cached result (settings, targets or calibrations changed). */
  invalidate(): void {
    this.generation++;
    this.config = undefined;
    // A worker restarted or reconfigured holds no text: each document's next request carries its text.
    this.sent.clear();
    this.results.clear();
    this.inflight.clear();
    this.scans.clear();
    this.scanned.clear();
    this.emitter.fire(undefined);
  }

  /** The analysis of this exact version, if computed (not its counts alone while its findings are on the way). */
  cached(document: vscode.TextDocument): DocumentAnalysis | undefined {
    const key = document.uri.toString();
    const result = this.results.get(key);
    if (result?.version !== document.version || this.outdated(result)) return undefined;
    return result.findingsPending === 'running' && this.inflight.get(key)?.version === result.version
      ? undefined
      : result;
  }

  /**
   * The newest analysis of any version, never waiting: counts and estimates as soon as the worker has them,
   * findings marked pending until they are in (stale while typing, fine for a hover between keystrokes).
   */
  latest(document: vscode.TextDocument): DocumentAnalysis | undefined {
    return this.results.get(document.uri.toString());
  }

  analyze(document: vscode.TextDocument): Promise<DocumentAnalysis | undefined> {
    if (!isPromptDocument(document)) return Promise.resolve(undefined);
    const hit = this.cached(document);
    if (hit) return Promise.resolve(hit);
    const key = document.uri.toString();
    const running = this.inflight.get(key);
    if (running?.version === document.version) return running.result;
    const result = this.run(document).finally(() => {
      if (this.inflight.get(key)?.result === result) this.inflight.delete(key);
    });
    this.inflight.set(key, { version: document.version, result });
    return result;
  }

  /**
   * The analysis of the document under the settings in force when it returns: a run that new settings or
   * an edit superseded (the first of a document answers nothing then) is done again. For commands that need one.
   */
  async current(document: vscode.TextDocument): Promise<DocumentAnalysis | undefined> {
    for (;;) {
      const [generation, version] = [this.generation, document.version];
      const result = await this.analyze(document);
      if (result || (generation === this.generation && version === document.version)) return result;
    }
  }

  private async run(document: vscode.TextDocument): Promise<DocumentAnalysis | undefined> {
    const generation = this.generation;
    const config = await this.configuration();
    const key = document.uri.toString();
    const version = document.version;
    // Findings computed before the workspace scan finished: the counts and cold figures are final and the worker still
    // holds this version, so only the findings are asked again — the text is not copied to the worker nor recounted.
    const known = this.results.get(key);
    const knownCount = known?.version === version && this.outdated(known) ? this.countedOf.get(known) : undefined;
    if (known && knownCount) {
      const { targets: _t, findings: _f, instructions: _i, cacheable: _c, findingsPending: _p, ...base } = known;
      return this.withFindings(document, generation, config, knownCount, base, known);
    }
    const counted = await this.postCount(document, config);
    if (counted && 'needsText' in counted) {
      // The worker no longer holds the text the edits applied to (restarted, reconfigured): the whole text, once.
      this.sent.delete(key);
      return this.run(document);
    }
    if (counted && 'tooLargeBytes' in counted) {
      if (document.version !== version || generation !== this.generation) return this.results.get(key);
      const result: DocumentAnalysis = {
        version,
        parsed: promptOutline(parsePlain('', [])),
        count: NOTHING_COUNTED,
        targets: [],
        findings: [],
        profile: readWorkloadProfile(undefined, document.uri).profile,
        tooLarge: `over promptLens.maxFileBytes (${config.maxFileBytes.toLocaleString('en-US')} bytes): not tokenised`,
        problems: config.problems,
      };
      this.store(document, result, generation);
      return result;
    }
    // Superseded by a newer version (its analysis follows) or by new settings.
    if (!counted || document.version !== version || generation !== this.generation) return this.results.get(key);
    this.scanWorkspace(config, counted.targets[0]!, generation);
    const { profile, problems: profileProblems } = readWorkloadProfile(counted.frontMatterProfile, document.uri);
    const base: AnalysisBase = {
      version,
      parsed: counted.parsed,
      count: this.targetCount(counted, counted.targets[0]!),
      ...(counted.frontMatterTarget ? { frontMatterTarget: counted.frontMatterTarget } : {}),
      ...(config.engine.targets[0] ? { configuredPrimary: config.engine.targets[0].id } : {}),
      profile,
      problems: [
        ...config.problems,
        ...profileProblems,
        ...this.calibrations.staleNotes(counted.targets.map((t) => t.id)),
      ],
    };
    return this.withFindings(document, generation, config, counted, base, this.results.get(key));
  }

  /**
   * Sends this version to the worker to count: its edits alone once the worker was sent the previous version, else its
   * text. The edits (those since the last request) are taken and sent in one step, with no await between, so that
   * requests reach the worker in the order their edits were taken.
   */
  private postCount(document: vscode.TextDocument, config: Config): Promise<EditResult | undefined> {
    const key = document.uri.toString();
    const edits = this.pendingEdits.get(key) ?? [];
    this.pendingEdits.delete(key);
    const request = {
      key,
      file: vscode.workspace.asRelativePath(document.uri, false),
      fileName: parseFileName(document),
      version: document.version,
      edits,
    };
    const length = textLength(document);
    if (this.sent.has(key)) return this.engine.call('edit', { ...request, length, maxBytes: config.maxFileBytes });
    // UTF-8 takes at least a byte per UTF-16 unit: a file that long is over the limit without copying its text.
    const text = length > config.maxFileBytes ? undefined : document.getText();
    const bytes = text === undefined ? length : Buffer.byteLength(text);
    if (text === undefined || bytes > config.maxFileBytes)
      return Promise.resolve({ version: request.version, tooLargeBytes: bytes });
    this.sent.add(key);
    return this.engine.call('count', { ...request, text });
  }

  /**
   * Stores counts and estimates at once (status bar, hover), then asks for the findings (a large prompt's once typing
   * pauses); until they are in, `previous`'s findings and cacheable prefix stand, marked pending.
   */
  private async withFindings(
    document: vscode.TextDocument,
    generation: number,
    config: Config,
    counted: CountResult,
    base: AnalysisBase,
    previous: DocumentAnalysis | undefined,
  ): Promise<DocumentAnalysis | undefined> {
    const key = document.uri.toString();
    const { version, profile } = base;
    const primaryId = counted.targets[0]!.id;
    const early = this.keep(counted, {
      ...base,
      targets: this.estimates(counted, profile, previous?.cacheable, config.cacheTtl),
      findings: previous?.findings ?? [],
      ...(previous?.instructions ? { instructions: previous.instructions } : {}),
      ...(previous?.cacheable ? { cacheable: previous.cacheable } : {}),
      findingsPending: 'running',
    });
    this.store(document, early, generation);
    const pass = async (): Promise<DocumentAnalysis | undefined> => {
      // Taken before asking: the worker runs a findings call after the scan it was given first.
      const scanned = this.scanned.has(primaryId);
      const found = await this.engine.call('findings', key, version);
      if (!found || document.version !== version) return undefined;
      return this.keep(counted, {
        ...base,
        // The estimates depend on the cacheable prefix only: those computed above stand when it is the same.
        targets:
          (found.cacheable?.tokens ?? 0) === (early.cacheable?.tokens ?? 0)
            ? early.targets
            : this.estimates(counted, profile, found.cacheable, config.cacheTtl),
        findings: found.findings,
        instructions: found.instructions,
        ...(found.cacheable ? { cacheable: found.cacheable } : {}),
        ...(scanned ? {} : { findingsPending: 'scan' as const }),
      });
    };
    if (textLength(document) >= DEFERRED_FINDINGS_CHARS) {
      this.deferFindings(document, generation, pass);
      return early;
    }
    const result = await pass();
    if (!result) return this.results.get(key);
    this.store(document, result, generation);
    // The scan finished while these findings were computed: a refresh begun since joined this run, so ask again.
    if (this.outdated(result)) this.emitter.fire(undefined);
    return result;
  }

  /** Findings computed before the workspace scan of its primary target finished, which has finished since. */
  private outdated(result: DocumentAnalysis): boolean {
    return result.findingsPending === 'scan' && this.scanned.has(result.targets[0]?.id ?? '');
  }

  private keep(counted: CountResult, analysis: DocumentAnalysis): DocumentAnalysis {
    this.countedOf.set(analysis, counted);
    return analysis;
  }

  /**
   * The analysis once the workspace scan of its primary target is done (findings and the cacheable prefix
   * against every prompt of the workspace), as the hover shows it from then on.
   */
  async settled(document: vscode.TextDocument): Promise<DocumentAnalysis | undefined> {
    const first = await this.analyze(document);
    const scan = first?.targets[0] && this.scans.get(first.targets[0].id);
    if (!scan) return first;
    await scan;
    return this.analyze(document);
  }

  /**
   * What an agent asked for: the settled analysis, estimated on its own targets (primary first; counted in the
   * worker) and for its scenario over the document's workload. Findings and the cacheable prefix stay the
   * editor's, from the configured primary target and workload.
   */
  async forAgent(
    document: vscode.TextDocument,
    request: { targets?: readonly string[]; scenario?: SloSettings },
  ): Promise<DocumentAnalysis | undefined> {
    const analysis = await this.settled(document);
    if (!analysis || analysis.tooLarge || (!request.targets && !request.scenario)) return analysis;
    const counted = this.countedOf.get(analysis);
    if (!counted) throw new Error(`${document.fileName}: the analysis is not ready yet; ask again`);
    const config = await this.configuration();
    const { tables, assume } = config.engine;
    const targets = request.targets?.map((id) => resolveTarget(parseTargetId(id), tables, assume)) ?? counted.targets;
    const counts = await this.engine.call(
      'recount',
      document.uri.toString(),
      analysis.version,
      targets.map((t) => ({ tokenizer: targetTokenizer(t), model: targetModelId(t) })),
    );
    if (!counts) throw new Error(`${document.fileName} changed while it was analysed; ask again`);
    const recounted: CountResult = { ...counted, counts, targets };
    const { profile } = readWorkloadProfile(counted.frontMatterProfile, document.uri, request.scenario);
    const { frontMatterTarget: _chosen, ...rest } = analysis;
    return {
      ...(request.targets ? rest : analysis),
      count: this.targetCount(recounted, targets[0]!),
      targets: this.estimates(recounted, profile, analysis.cacheable, config.cacheTtl),
      profile,
    };
  }

  /**
   * A target's count as its estimates use it: corrected by its endpoint's billed counts when the target's
   * tokenizer is an approximation and a benchmark has fitted a correction (the one place this happens for
   * the editor: status bar, hover, CodeLens and the estimates all read this count).
   */
  private targetCount(counted: CountResult, target: ResolvedTarget): PromptCount {
    return correctCount(countFor(counted, target), this.calibrations.correction(target.id));
  }

  private estimates(
    counted: CountResult,
    profile: WorkloadProfile,
    cacheable: Cacheable | undefined,
    cacheTtl: CacheTtl,
  ): TargetEstimate[] {
    // Priced now: time-of-day rates (DeepSeek peak hours) follow the clock, and the hover says which apply.
    const at = new Date();
    return counted.targets.map((target) => {
      const calibration = this.calibrations.profile(target.id);
      return estimateTarget({
        target,
        count: this.targetCount(counted, target),
        prefixTokens: cacheable?.tokens ?? 0,
        slo: profile,
        ...(calibration ? { calibration } : {}),
        cacheTtl,
        at,
      });
    });
  }

  private store(document: vscode.TextDocument, result: DocumentAnalysis, generation: number): void {
    if (generation !== this.generation) return;
    this.results.set(document.uri.toString(), result);
    this.emitter.fire(document.uri);
  }

  /** Runs a large document's findings after FINDINGS_IDLE_MS without edits, then tells the surfaces. */
  private deferFindings(
    document: vscode.TextDocument,
    generation: number,
    pass: () => Promise<DocumentAnalysis | undefined>,
  ): void {
    this.findingTimers.schedule(document.uri.toString(), FINDINGS_IDLE_MS, () => {
      pass().then(
        (result) => {
          if (!result || generation !== this.generation) return;
          this.store(document, result, generation);
          this.findingsEmitter.fire(document);
        },
        (error: unknown) => log.error('findings failed', error),
      );
    });
  }

  forget(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    this.findingTimers.cancel(key);
    this.results.delete(key);
    this.pendingEdits.delete(key);
    this.sent.delete(key);
    this.inflight.delete(key);
    if (this.engine.running) void this.engine.call('forget', key).catch(() => undefined);
  }

  /** Tokens of a piece of text with one tokenizer (the hover's selection), counted in the worker. */
  countText(tokenizer: TokenizerId, text: string): Promise<number> {
    return this.configuration().then(() => this.engine.call('countText', tokenizer, text));
  }

  /**
   * The messages a benchmark of this analysis sends, as the worker parsed its version; undefined when a newer version
   * (or new settings) has replaced it there.
   */
  benchMessages(document: vscode.TextDocument, analysis: DocumentAnalysis): Promise<BenchMessages | undefined> {
    return this.engine.call('benchMessages', document.uri.toString(), analysis.version);
  }

  /** Compare Targets for an analysed document (its latest counted text). */
  async compare(document: vscode.TextDocument, analysis: DocumentAnalysis): Promise<CompareResult> {
    const config = await this.configuration();
    return this.engine.call('compare', document.uri.toString(), {
      profile: analysis.profile,
      cacheTtl: config.cacheTtl,
      ...(analysis.cacheable ? { cachedTokens: analysis.cacheable.tokens } : {}),
      calibrations: this.calibrations.profiles(),
      corrections: this.calibrations.corrections(),
    });
  }

  /** The workspace report on the primary target, or on the target named. */
  async report(inputs: ReportFileInput[], targetId?: string): Promise<PromptReport> {
    await this.configuration();
    return this.engine.call('report', inputs, targetId, this.calibrations.corrections());
  }

  /**
   * Gives the engine every prompt file in the workspace (open ones with their unsaved text) once per
   * primary target; when it has them all, the open prompts are re-analysed against the whole workspace.
   */
  private scanWorkspace(config: Config, primary: ResolvedTarget, generation: number): void {
    if (this.scans.has(primary.id)) return;
    const scan = (async () => {
      await new Promise((resolve) => setTimeout(resolve, SCAN_START_DELAY_MS));
      if (generation !== this.generation || this.disposed) return;
      const sources = await workspacePromptSources(config.maxFileBytes);
      for (const batch of batches(sources, SCAN_BATCH_CHARS, sourceSize)) {
        const packed = packSources(batch);
        await this.engine.transferring(packed.transfer, 'scanPacked', primary.id, packed);
        if (generation !== this.generation) return;
      }
      this.scanned.add(primary.id);
      // Hovers keep answering from the results they have while the surfaces refresh them all (see outdated()).
      this.emitter.fire(undefined);
    })().catch((error: unknown) => log.error('workspace scan failed', error));
    this.scans.set(primary.id, scan);
  }

  private configuration(): Promise<Config> {
    if (!this.config) {
      const config = this.loadConfig();
      // A failed load (the worker died meanwhile) is tried again by the next call, not cached.
      config.catch(() => {
        if (this.config === config) this.config = undefined;
      });
      this.config = config;
    }
    return this.config;
  }

  private async loadConfig(): Promise<Config> {
    // The first validation of each schema compiles it: tens of milliseconds together, so yield between.
    const { settings } = readSettings();
    const problems = [...readSettings().problems];
    await nextTick();
    const loaded = await this.tables.get();
    await nextTick();
    problems.push(...loaded.problems);
    const { assume, targets, problems: targetProblems } = configuredTargets(settings, loaded.tables);
    problems.push(...targetProblems);
    if (targets.length === 0) targets.push(resolveTarget(parseTargetId('openai/gpt-4o'), loaded.tables));
    const engine: EngineConfig = {
      tables: loaded.tables,
      targets,
      assume,
      findings: {
        disabled: settings.findings.disabled,
        rag: settings.rag,
        cache: settings.cache,
        instructions: settings.instructions,
      },
      variablePatterns: settings.variablePatterns,
      disabledFormats: settings.formats.disabled,
      ...instructionLocations(),
      ...(vscode.workspace.isTrusted ? {} : { untrusted: true }),
      workload: readWorkloadProfile().profile,
    };
    await this.engine.call('configure', engine);
    return { engine, maxFileBytes: settings.maxFileBytes, cacheTtl: settings.cache.ttl, problems };
  }

  dispose(): void {
    this.disposed = true;
    this.findingTimers.dispose();
    for (const d of this.disposables) d.dispose();
    void this.engine.dispose();
  }
}

/**
 * VS Code's own `chat.instructionsFilesLocations` (folder → enabled), when the user set it: the
 * `*.instructions.md` folders its chat loads. Anything else falls back to `.github/instructions`.
 */
function instructionLocations(): { instructionLocations?: string[] } {
  const value: unknown = vscode.workspace.getConfiguration('chat').get('instructionsFilesLocations');
  const parsed = z.record(z.string(), z.boolean()).safeParse(value);
  if (!parsed.success) return {};
  const folders = Object.entries(parsed.data)
    .filter(([, on]) => on)
    .map(([folder]) => folder.replace(/^\.\//, '').replace(/\/+$/, ''));
  return folders.length > 0 ? { instructionLocations: folders } : {};
}

function countFor(counted: CountResult, target: ResolvedTarget): PromptCount {
  return counted.counts[targetCountKey(target)]!;
}

/** A file over the size limit is not tokenised at all. */
const NOTHING_COUNTED: PromptCount = {
  tokenizer: 'o200k_base',
  exact: true,
  contentTokens: 0,
  inputTokens: 0,
  messages: [],
  variables: [],
  errors: [],
};
