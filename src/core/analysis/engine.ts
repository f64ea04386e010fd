import {
  compareTargets,
  promptSloSettings,
  selfHostedModel,
  type CompareResult,
  type FrontMatterProfile,
  type WorkloadProfile,
} from '../compare';
import { benchMessages, type BenchMessages } from '../bench/benchPrompt';
import { countPrompt, promptTokenCounter, type PromptCount } from '../count';
import { countKey } from '../countKey';
import type { TokenCorrection } from '../calibrate/tokenCorrection';
import {
  parseTargetId,
  resolveTarget,
  targetIdForModel,
  targetTokenizer,
  targetCountKey,
  targetModelId,
  type CacheTtl,
  type CalibrationProfile,
  type ResolvedTarget,
  type Tables,
  type TargetAssumptions,
} from '../estimate';
import type { Workload } from '../estimate/scenarios';
import { PrefixCacheAnalyser, updateInSlices } from '../findings/prefixCache';
import { buildReport, ragFindings, suppressed, type PromptReport, type ReportFileInput } from '../findings/report';
import { lineIndex } from '../findings/request';
import { instructionsBudget, instructionsBudgetFinding, type InstructionsBudget } from '../findings/instructions';
import type { FindingSettings } from '../findings/settings';
import { findingTarget, type FindingTarget } from '../findings/targets';
import type { Finding } from '../findings/types';
import { parsePrompt } from '../prompt/parse';
import { promptOutline, type PromptOutline } from '../prompt/outline';
import type { ParsedPrompt, ParseOptions } from '../prompt/types';
import { isInstructionFormat, type PromptFormat } from '../prompt/formats';
import { PromptCounter } from '../promptCounter';
import { applyEdits, type TextEdit } from '../tokenize/incremental';
import { getTokenizer } from '../tokenize/registry';
import type { TokenizerId } from '../tokenize/types';
import { unpackSources, type PackedSources } from './batches';
import { Lanes } from './lanes';

/** A scan slice: a count asked for meanwhile waits at most this (plus one file's update) for the worker. */
const SCAN_SLICE_MS = 10;

/** What the engine needs from settings and tables; plain data, so it can cross to a worker thread. */
export interface EngineConfig {
  tables: Tables;
  /** Resolved from promptLens.targets, primary first (never empty). */
  targets: ResolvedTarget[];
  /** Engine and scope for targets that name none (promptLens.engine, promptLens.scope); absent: vLLM over HTTP. */
  assume?: TargetAssumptions;
  findings: FindingSettings;
  variablePatterns: string[];
  /** `promptLens.formats.disabled`: files of these formats are read as plain text. */
  disabledFormats: PromptFormat[];
  /** Folders whose `*.instructions.md` VS Code loads (`chat.instructionsFilesLocations`); unset: the default. */
  instructionLocations?: string[];
  /** An untrusted workspace: its files' `prompt-lens-dynamic` pragmas (regular expressions) are not run. */
  untrusted?: boolean;
  /** The workload (settings' profile) findings and the report assume: the hover's, so their figures agree. */
  workload: Workload;
}

/** How every file of the editor is parsed: the same options for counts, findings, scans and the report. */
function parseOptions(config: EngineConfig): ParseOptions {
  return { variablePatterns: config.variablePatterns, disabledFormats: config.disabledFormats };
}

export interface CountRequest {
  /** Identifies the document across versions (its URI). */
  key: string;
  /** Workspace-relative path: how findings and other prompts name it. */
  file: string;
  fileName: string;
  text: string;
  version: number;
  /** VS Code's content changes since the text last sent for this key, in order. */
  edits: readonly TextEdit[];
}

/**
 * A count request with the edits alone, for a document whose previous version the worker was sent (as text or as
 * edits): a keystroke in a megabyte no longer copies the megabyte from the extension host to the worker.
 */
export interface EditRequest extends Omit<CountRequest, 'text'> {
  /** The text's length after the edits, in UTF-16 units: they must land on the text the host edited. */
  length: number;
  /** `promptLens.maxFileBytes`: a longer text (in UTF-8) is not counted; the host has not measured it. */
  maxBytes: number;
}

/** An edit request's answer: a count, the text's size when it is over the limit, or a request for the whole text. */
export type EditResult =
  CountResult | { version: number; tooLargeBytes: number } | { version: number; needsText: true };

export interface CountResult {
  version: number;
  /** The parse less the messages' texts (`benchMessages` has those). */
  parsed: PromptOutline;
  /** One count per distinct tokenizer and chat template among the targets, by targetCountKey. */
  counts: Record<string, PromptCount>;
  /** Primary first: the front matter's model when it names a known one, then the configured targets. */
  targets: ResolvedTarget[];
  /** The front-matter model that chose the primary target, when it did. */
  frontMatterTarget?: string;
  /** The workload the front matter names (`profile:`), read here so the host never parses YAML. */
  frontMatterProfile: FrontMatterProfile;
}

/** The prefix a cache can serve and where it ends in the file. */
export interface Cacheable {
  tokens: number;
  endOffset: number;
  source: 'shared with other prompts' | 'static' | 'always-on instructions' | 'instructions' | 'system prompt';
}

export interface FindingsResult {
  version: number;
  findings: Finding[];
  cacheable?: Cacheable;
  /** The workspace's always-on instructions on this document's primary target. */
  instructions: InstructionsBudget;
}

export interface CompareOptions {
  profile: WorkloadProfile;
  cachedTokens?: number;
  /** Fresh calibrations by target id. */
  calibrations: Record<string, CalibrationProfile>;
  /** Corrections of approximate counts by their endpoint's bills, by target id (tokenCorrection.ts). */
  corrections?: Record<string, TokenCorrection>;
  /** promptLens.cache.ttl: the TTL cache writes are priced at. */
  cacheTtl?: CacheTtl;
}

interface Counted extends Omit<CountResult, 'parsed'> {
  parsed: ParsedPrompt;
  file: string;
  fileName: string;
  text: string;
}

interface DocumentState {
  /** The text of the newest version received, which the next edit request's edits apply to. */
  text?: string;
  /** Its length in UTF-8, once an edit request needed it. */
  bytes?: number;
  /** The newest version asked for: an older request still waiting is skipped. */
  requested: number;
  /** Edits not yet handed to the counters (a skipped request leaves its edits to the next). */
  edits: TextEdit[];
  /** Counting is serial per document, so each count starts from the previous one. */
  queue: Promise<unknown>;
  counted?: Counted;
}

interface Workspace {
  analyser: PrefixCacheAnalyser;
  target: FindingTarget;
  lines: LineIndexes;
}

/**
 * Each file's line index while its text is unchanged: a prefix-cache finding names every other file
 * of its group, and finding their lines again after each keystroke in one file scaled with the group.
 */
class LineIndexes {
  private readonly byFile = new Map<string, { text: string; at: ReturnType<typeof lineIndex> }>();

  of(file: string, text: string | undefined): ReturnType<typeof lineIndex> | undefined {
    if (text === undefined) {
      this.byFile.delete(file);
      return undefined;
    }
    let known = this.byFile.get(file);
    if (known?.text !== text) this.byFile.set(file, (known = { text, at: lineIndex(text) }));
    return known.at;
  }
}

/**
 * The editor's analysis pipeline without the editor: parse → tokens per target tokenizer
 * (incremental across versions) → findings against a workspace prefix-cache analyser, plus the
 * comparison and the report. Runs in a worker thread beside the extension host, so vocabularies and
 * megabyte tokenisation never hold the host; every input and result is plain data.
 */
export class AnalysisEngine {
  private config: EngineConfig | undefined;
  /** Bumped by configure(): work begun under older settings returns nothing. */
  private generation = 0;
  /** By count key (tokenizer + chat template): a counter caches one count per document. */
  private counters = new Map<string, PromptCounter>();
  private documents = new Map<string, DocumentState>();
  /** One prefix-cache analyser per primary target in use (front matter can pick its own). */
  private workspaces = new Map<string, Workspace>();
  /** Counts (what the status bar and hover show) go first; scan slices and findings steps wait for them. */
  private readonly lanes = new Lanes();

  configure(config: EngineConfig): void {
    if (config.targets.length === 0) throw new Error('the engine needs at least one target');
    this.config = config;
    this.generation++;
    this.counters = new Map();
    this.documents = new Map();
    this.workspaces = new Map();
  }

  /**
   * Counts one document version with each target's tokenizer. Undefined when a newer version of the
   * same document arrived first (its request counts instead) or the configuration changed meanwhile.
   * Urgent: from this call until it answers, the workspace scan and findings wait at their next pause.
   */
  count(request: CountRequest): Promise<CountResult | undefined> {
    return this.countReceived(request);
  }

  /** count(), with the text's UTF-8 length when known (an edit request measured it). */
  private countReceived(request: CountRequest, bytes?: number): Promise<CountResult | undefined> {
    const config = this.configured();
    const generation = this.generation;
    const state = this.documentState(request.key);
    [state.text, state.bytes] = [request.text, bytes];
    state.requested = Math.max(state.requested, request.version);
    state.edits.push(...request.edits);
    const queued = state.queue;
    const run = this.lanes.urgent(async () => {
      await queued;
      if (state.requested !== request.version) return undefined;
      const edits = state.edits.splice(0);
      const counted = await this.countNow(config, request, edits);
      if (generation !== this.generation) return undefined;
      state.counted = counted;
      return {
        version: counted.version,
        parsed: promptOutline(counted.parsed),
        counts: counted.counts,
        targets: counted.targets,
        ...(counted.frontMatterTarget ? { frontMatterTarget: counted.frontMatterTarget } : {}),
        frontMatterProfile: counted.frontMatterProfile,
      };
    });
    state.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Counts a version sent as its edits (see EditRequest). When this worker does not hold the text they apply to (it
   * restarted, was reconfigured, or forgot the document) or they do not add up to the host's length, it asks for the
   * whole text instead.
   */
  edit(request: EditRequest): Promise<EditResult | undefined> {
    const { length, maxBytes, ...rest } = request;
    const state = this.documents.get(request.key);
    const edited =
      state?.text === undefined
        ? undefined
        : applyEdits(state.text, state.bytes ?? Buffer.byteLength(state.text), request.edits);
    if (!state || edited?.text.length !== length) {
      if (state) [state.text, state.bytes] = [undefined, undefined];
      return Promise.resolve({ version: request.version, needsText: true });
    }
    if (edited.bytes <= maxBytes) return this.countReceived({ ...rest, text: edited.text }, edited.bytes);
    // Not counted, still followed: the next edits apply to this text, and the counters get these edits with them.
    [state.text, state.bytes] = [edited.text, edited.bytes];
    state.requested = Math.max(state.requested, request.version);
    state.edits.push(...request.edits);
    return Promise.resolve({ version: request.version, tooLargeBytes: edited.bytes });
  }

  private async countNow(config: EngineConfig, request: CountRequest, edits: readonly TextEdit[]): Promise<Counted> {
    const { key, file, fileName, text, version } = request;
    // One parse serves the front matter and every tokenizer's counter.
    const parsed = parsePrompt(fileName, text, parseOptions(config));
    const { targets, fromFrontMatter } = targetsFor(config, parsed.settings.model);
    const counts: Record<string, PromptCount> = {};
    for (const target of targets) {
      const countKey = targetCountKey(target);
      const model = targetModelId(target);
      // Sliced, so a selection count or another document's request is answered in between.
      counts[countKey] ??= await this.counter(countKey, targetTokenizer(target)).count({
        key,
        fileName,
        text,
        version,
        edits,
        parsed,
        model,
      });
    }
    return {
      version,
      parsed,
      counts,
      targets,
      ...(fromFrontMatter ? { frontMatterTarget: fromFrontMatter } : {}),
      frontMatterProfile: promptSloSettings(text),
      file,
      fileName,
      text,
    };
  }

  /**
   * The findings of a counted version against the workspace on its primary target, and the prefix a
   * cache can serve. Undefined when that version is no longer the latest counted.
   */
  async findings(key: string, version: number): Promise<FindingsResult | undefined> {
    const config = this.configured();
    const generation = this.generation;
    const current = () =>
      generation === this.generation && this.documents.get(key)?.counted?.version === version
        ? this.documents.get(key)!.counted
        : undefined;
    const counted = current();
    if (!counted) return undefined;
    const { file, text, parsed, targets } = counted;
    const workspace = this.workspace(config, targets[0]!);
    const count = counted.counts[targetCountKey(targets[0]!)]!;
    // Each step is tens of milliseconds on a megabyte: yield between them (to counts first), stop when superseded.
    // The findings figure TTFT and cost on the count the status bar and hover show.
    workspace.analyser.update(file, text, parsed, count.inputTokens);
    await this.lanes.background();
    if (!current()) return undefined;
    const input = {
      file,
      text,
      parsed,
      analyser: workspace.analyser,
      tokenizer: getTokenizer(workspace.target.tokenizer),
      costModel: workspace.target.model,
      settings: config.findings,
    };
    const rag = ragFindings(input).findings;
    await this.lanes.background();
    if (!current()) return undefined;
    const instructions = instructionsBudget(
      workspace.analyser.instructionSources(),
      workspace.target.model,
      config.findings.instructions,
      (piece) => input.tokenizer.count(piece),
      ...(config.instructionLocations ? [config.instructionLocations] : []),
    );
    const over = instructionsBudgetFinding(instructions);
    const findings = withPositions(
      suppressed(input, [rag, workspace.analyser.findingsFor(file), over?.file === file ? [over] : []]),
      (path) => workspace.lines.of(path, path === file ? text : workspace.analyser.textOf(path)),
    );
    const alwaysOn = instructions.alwaysOn.some((e) => e.file === file && !e.skillMetadata);
    const cacheable = cacheablePrefix(workspace.analyser, file, parsed, count, alwaysOn);
    return { version, findings, instructions, ...(cacheable ? { cacheable } : {}) };
  }

  /** Feeds every workspace prompt to the analyser of this primary target, in slices. */
  async scan(targetId: string, sources: readonly ReportFileInput[]): Promise<void> {
    const config = this.configured();
    const workspace = this.workspace(config, resolveTarget(parseTargetId(targetId), config.tables, config.assume));
    // Parsed one file at a time inside the slices: parsing 10,000 files up front held the worker's
    // loop for the whole parse, so a hover's count waited behind it.
    const options = parseOptions(config);
    await updateInSlices(
      workspace.analyser,
      (function* () {
        for (const { path, text } of sources) yield { file: path, text, parsed: parsePrompt(path, text, options) };
      })(),
      SCAN_SLICE_MS,
      () => this.lanes.background(),
    );
  }

  /** The scan of a batch as the extension host sends it: files read from disk as bytes, decoded here. */
  scanPacked(targetId: string, packed: PackedSources): Promise<void> {
    return this.scan(targetId, unpackSources(packed));
  }

  /**
   * The counts of a counted version for more targets (an agent's own: tokenizer and model), as Compare counts
   * them: the ones already known, the rest counted once. Undefined when that version is no longer
   * the latest counted.
   */
  recount(
    key: string,
    version: number,
    targets: ReadonlyArray<{ tokenizer: TokenizerId; model: string }>,
  ): Record<string, PromptCount> | undefined {
    const counted = this.documents.get(key)?.counted;
    if (counted?.version !== version) return undefined;
    const counts = { ...counted.counts };
    // Keyed as countNow keys them (tokenizer + the target model's chat template).
    for (const { tokenizer, model } of targets)
      counts[countKey(tokenizer, model)] ??= countPrompt(counted.parsed, getTokenizer(tokenizer), undefined, model);
    return counts;
  }

  /**
   * The messages a benchmark of a counted version sends (benchMessages), from the worker's parse: the host holds
   * only the outline. Undefined when that version is no longer the latest counted.
   */
  benchMessages(key: string, version: number): BenchMessages | undefined {
    const counted = this.documents.get(key)?.counted;
    return counted?.version === version ? benchMessages(counted.parsed) : undefined;
  }

  /** Tokens of a piece of text (the hover's selection). */
  countText(tokenizer: TokenizerId, text: string): number {
    return getTokenizer(tokenizer).count(text);
  }

  /**
   * Compare Targets for a counted document: API models plus self-hosted deployments of the prompt's
   * model (its front matter's open-weight model, else the model of the first self-hosted target).
   */
  compare(key: string, options: CompareOptions): CompareResult {
    const config = this.configured();
    const counted = this.documents.get(key)?.counted;
    if (!counted) throw new Error('compare: the document has not been counted yet');
    const candidates = [
      counted.parsed.settings.model,
      ...counted.targets.filter((t) => t.kind === 'self-hosted').map((t) => t.id.split('@')[0]),
    ];
    const model = candidates
      .map((m) => (m ? selfHostedModel(config.tables, { promptModel: m }) : undefined))
      .find((m) => m !== undefined);
    return compareTargets({
      tables: config.tables,
      profile: options.profile,
      // This version's parse and counts: the same numbers as the hover, settings' variable patterns included.
      countTokens: promptTokenCounter(counted.parsed, counted.counts),
      ...(options.cachedTokens ? { cachedTokens: options.cachedTokens } : {}),
      ...(model ? { model } : {}),
      assume: config.assume ?? {},
      calibrationFor: (id) => options.calibrations[id],
      correctionFor: (id) => options.corrections?.[id],
      ...(options.cacheTtl ? { cacheTtl: options.cacheTtl } : {}),
    });
  }

  /** The workspace report on the primary target, or on the target named (resolved with the engine assumed). */
  report(
    inputs: readonly ReportFileInput[],
    targetId?: string,
    corrections: Readonly<Record<string, TokenCorrection>> = {},
  ): PromptReport {
    const config = this.configured();
    const primary = targetId
      ? resolveTarget(parseTargetId(targetId), config.tables, config.assume)
      : config.targets[0]!;
    const target = findingTarget(primary, config.workload);
    return buildReport(
      inputs,
      {
        tokenizer: getTokenizer(target.tokenizer),
        chatModel: targetModelId(config.targets[0]!),
        costModel: target.model,
        settings: config.findings,
        ...(corrections[primary.id] ? { correction: corrections[primary.id] } : {}),
        ...(config.instructionLocations ? { instructionLocations: config.instructionLocations } : {}),
      },
      parseOptions(config),
    );
  }

  forget(key: string): void {
    this.documents.delete(key);
    for (const counter of this.counters.values()) counter.forget(key);
  }

  private configured(): EngineConfig {
    if (!this.config) throw new Error('the analysis engine has not been configured');
    return this.config;
  }

  private documentState(key: string): DocumentState {
    let state = this.documents.get(key);
    if (!state) {
      state = { requested: -Infinity, edits: [], queue: Promise.resolve() };
      this.documents.set(key, state);
    }
    return state;
  }

  private counter(countKey: string, id: TokenizerId): PromptCounter {
    let counter = this.counters.get(countKey);
    if (!counter) {
      counter = new PromptCounter({ tokenizer: id });
      this.counters.set(countKey, counter);
    }
    return counter;
  }

  private workspace(config: EngineConfig, primary: ResolvedTarget): Workspace {
    let workspace = this.workspaces.get(primary.id);
    if (!workspace) {
      const target = findingTarget(primary, config.workload);
      workspace = {
        target,
        lines: new LineIndexes(),
        analyser: new PrefixCacheAnalyser({
          tokenizer: getTokenizer(target.tokenizer),
          costModel: target.model,
          settings: config.findings.cache,
          rag: config.findings.rag,
          filePatterns: config.untrusted !== true,
        }),
      };
      this.workspaces.set(primary.id, workspace);
    }
    return workspace;
  }
}

/**
 * Related locations with their line and column, from the texts the analysis used: the editor shows
 * them without reading the other files again.
 */
function withPositions(
  findings: Finding[],
  lineOf: (file: string) => ReturnType<typeof lineIndex> | undefined,
): Finding[] {
  return findings.map((f) => {
    if (!f.relatedFiles) return f;
    const relatedFiles = f.relatedFiles.map((r) => {
      const at = lineOf(r.file);
      return at === undefined ? r : { ...r, position: at(r.range.start) };
    });
    return { ...f, relatedFiles };
  });
}

function targetsFor(
  config: EngineConfig,
  frontMatterModel: string | undefined,
): { targets: ResolvedTarget[]; fromFrontMatter?: string } {
  const id = frontMatterModel ? targetIdForModel(frontMatterModel, config.tables, config.targets[0]) : undefined;
  if (!id) return { targets: config.targets };
  const target = resolveTarget(parseTargetId(id), config.tables, config.assume);
  return { targets: [target, ...config.targets.filter((t) => t.id !== target.id)], fromFrontMatter: frontMatterModel! };
}

/**
 * Shared prefix with other workspace prompts when there is one; else the static prefix up to the
 * first dynamic element (`firstDynamic`: a variable, a retrieval slot, a declared pattern) or
 * retrieved-context region (written-out ones included); either way never past that point. A file
 * with none is an instruction file (sent whole, first, on every request) or a prompt whose system
 * prompt repeats on every call.
 */
function cacheablePrefix(
  analyser: PrefixCacheAnalyser,
  file: string,
  parsed: ParsedPrompt,
  count: PromptCount,
  alwaysOn: boolean,
): Cacheable | undefined {
  // Warm figures never count retrieved context as cached, written out in the file or not.
  const prefix = analyser.staticPrefix(file, { endAtRetrievedContext: true });
  if (!prefix) return undefined;
  const member = analyser.groupOf(file)?.members.find((m) => m.file === file);
  if (member && member.cacheableTokens > 0 && member.cacheableTokens <= prefix.cacheableTokens)
    return { tokens: member.cacheableTokens, endOffset: member.prefixEnd, source: 'shared with other prompts' };
  if (prefix.dynamic)
    return prefix.cacheableTokens > 0
      ? { tokens: prefix.cacheableTokens, endOffset: prefix.endOffset, source: 'static' }
      : undefined;
  if (isInstructionFormat(parsed.format))
    return prefix.cacheableTokens > 0
      ? {
          tokens: prefix.cacheableTokens,
          endOffset: prefix.endOffset,
          source: alwaysOn ? 'always-on instructions' : 'instructions',
        }
      : undefined;
  const system = parsed.messages[0];
  if (system && system.role === 'system' && parsed.messages.length > 1)
    return { tokens: count.messages[0]?.tokens ?? 0, endOffset: system.range.end, source: 'system prompt' };
  return undefined;
}
