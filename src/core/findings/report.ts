import {
  correctionFormula,
  correctTotal,
  type AppliedCorrection,
  type TokenCorrection,
} from '../calibrate/tokenCorrection';
import { countPrompt } from '../count';
import { parsePrompt } from '../prompt/parse';
import type { ParsedPrompt, ParseOptions, SourceRange } from '../prompt/types';
import type { Tokenizer } from '../tokenize/types';
import type { CacheRule, FindingCostModel } from './costModel';
import { instructionsBudget, instructionsBudgetFinding, type InstructionsBudget } from './instructions';
import { applySuppression, readPragmas } from './pragma';
import { PrefixCacheAnalyser, type GroupMember } from './prefixCache';
import { analyseRag, type RagRegion } from './rag';
import { lineIndex } from './request';
import type { FindingSettings } from './settings';
import { SEVERITY_RANK, type Finding, type FindingSeverity } from './types';

export interface ReportFileInput {
  /** Path relative to the report's root, forward slashes. */
  path: string;
  text: string;
}

export interface ReportOptions {
  tokenizer: Tokenizer;
  /** The target's model: its chat template renders the files' input tokens (targetModelId); default: front matter's. */
  chatModel?: string;
  costModel: FindingCostModel;
  settings: FindingSettings;
  /** The target's correction of approximate counts by its endpoint's bills (tokenCorrection.ts), when fitted. */
  correction?: TokenCorrection;
  /** Folders whose `*.instructions.md` load (`chat.instructionsFilesLocations`); default `.github/instructions`. */
  instructionLocations?: readonly string[];
}

export interface Position {
  line: number;
  column: number;
}

export interface LocatedRange extends SourceRange {
  startPosition: Position;
  endPosition: Position;
}

export interface ReportRegion {
  kind: RagRegion['kind'];
  marker: string;
  range: LocatedRange;
  tokens: number;
  share: number;
  addedTtftMs: number;
  addedCostUsd: number | null;
}

export interface ReportFile {
  file: string;
  tokens: number;
  ttftMs: number;
  costUsd: number | null;
  regions: ReportRegion[];
}

export interface ReportGroupMember extends Omit<GroupMember, 'prefixEnd'> {
  prefixEnd: LocatedRange;
}

export interface ReportGroup {
  sharedTokens: number;
  cacheableTokens: number;
  members: ReportGroupMember[];
}

export interface ReportFinding extends Omit<Finding, 'range' | 'relatedFiles'> {
  range: LocatedRange;
  relatedFiles: Array<{ file: string; range: LocatedRange; message: string }>;
}

/** The `--json` document; its shape is documented in docs/findings.md and only grows. */
export interface PromptReport {
  schemaVersion: 1;
  target: {
    label: string;
    /** The serving stack and measurement scope assumed. */
    serving: string;
    /** The workload every figure assumes ("8 concurrent requests, 256 output tokens"); TTFT and cost are cold. */
    scenario: string;
    tokenizer: string;
    contextWindow: number | null;
    /** null: the target has no prefix cache. */
    cacheRule: CacheRule | null;
    /** Set when the files' token counts are corrected by the target's endpoint's bills: from how many requests, how. */
    tokensCorrected?: { requests: number; formula: string };
  };
  files: ReportFile[];
  cacheGroups: ReportGroup[];
  findings: ReportFinding[];
  /** The always-on instructions: what every chat request carries before the prompt. */
  instructions: InstructionsBudget;
  summary: { files: number; error: number; warning: number; information: number };
}

export interface FileFindingsInput extends ReportOptions {
  file: string;
  text: string;
  parsed: ParsedPrompt;
  /** The workspace analyser, already updated with this file's current text. */
  analyser: PrefixCacheAnalyser;
}

/**
 * Everything one file shows: its RAG regions and all its findings (RAG, context window, prefix
 * cache, near miss, breakers), with the settings' disabled codes and the file's pragmas applied.
 * The editor calls this per document; the report calls it per file.
 */
export function fileFindings(input: FileFindingsInput): { regions: RagRegion[]; findings: Finding[] } {
  const rag = ragFindings(input);
  return { regions: rag.regions, findings: suppressed(input, [rag.findings, input.analyser.findingsFor(input.file)]) };
}

/** The retrieved-context part of fileFindings (callers that yield between steps use the parts). */
export function ragFindings(input: FileFindingsInput): { regions: RagRegion[]; findings: Finding[] } {
  const { file, text, parsed, analyser, tokenizer, costModel, settings } = input;
  return analyseRag({
    file,
    text,
    parsed,
    promptTokens: analyser.promptTokens(file) ?? 0,
    tokenizer,
    costModel,
    settings: settings.rag,
  });
}

/** Findings with the settings' disabled codes and the file's pragmas applied. */
export function suppressed(
  input: Pick<FileFindingsInput, 'text' | 'settings'>,
  parts: readonly Finding[][],
): Finding[] {
  const pragmas = readPragmas(input.text);
  return applySuppression(parts.flat(), input.settings.disabled, () => pragmas);
}

/**
 * Analyses every file: per-file numbers, RAG regions, cache groups and all findings, suppression
 * applied. `parseOptions` are the editor's (its variable patterns), so the report parses as it does.
 */
export function buildReport(
  inputs: readonly ReportFileInput[],
  options: ReportOptions,
  parseOptions: ParseOptions = {},
): PromptReport {
  const { tokenizer, costModel: model, settings } = options;
  const texts = new Map(inputs.map((f) => [f.path, f.text]));
  // Line starts are found once per file: a file can have thousands of findings.
  const lines = new Map<string, ReturnType<typeof lineIndex>>();
  const locate = (file: string, range: SourceRange): LocatedRange => {
    let lineOf = lines.get(file);
    // Stryker disable next-line ConditionalExpression: a memo; a line index built again gives the same positions.
    if (!lineOf) lines.set(file, (lineOf = lineIndex(texts.get(file) ?? '')));
    return { ...range, startPosition: lineOf(range.start), endPosition: lineOf(range.end) };
  };

  const analyser = new PrefixCacheAnalyser({
    tokenizer,
    costModel: model,
    settings: settings.cache,
    rag: settings.rag,
  });
  const parsed = new Map(inputs.map((f) => [f.path, parsePrompt(f.path, f.text, parseOptions)]));
  // Each file's input tokens as every surface counts them: its TTFT and cost here, in its findings and its cache group.
  // An approximate count is corrected by the target's endpoint's bills, as in the hover (tokenCorrection.ts).
  let corrected: AppliedCorrection | undefined;
  const counts = new Map(
    inputs.map((f) => {
      const local = countPrompt(parsed.get(f.path) as ParsedPrompt, tokenizer, tokenizer, options.chatModel);
      const total = correctTotal(local.tokenizer, local.inputTokens, options.correction);
      corrected ??= total.corrected;
      return [f.path, total.tokens];
    }),
  );
  for (const f of inputs) analyser.update(f.path, f.text, parsed.get(f.path) as ParsedPrompt, counts.get(f.path));

  const files: ReportFile[] = [];
  const found: Finding[] = [];
  for (const f of [...inputs].sort((a, b) => a.path.localeCompare(b.path))) {
    const n = counts.get(f.path) as number;
    const result = fileFindings({
      file: f.path,
      text: f.text,
      parsed: parsed.get(f.path) as ParsedPrompt,
      analyser,
      ...options,
    });
    files.push({
      file: f.path,
      tokens: n,
      ttftMs: model.ttftMs(n, 0),
      costUsd: model.costUsd(n, 0),
      regions: result.regions.map((r) => ({
        kind: r.kind,
        marker: r.marker,
        range: locate(f.path, r.range),
        tokens: r.tokens,
        share: r.share,
        addedTtftMs: r.addedTtftMs,
        addedCostUsd: r.addedCostUsd,
      })),
    });
    found.push(...result.findings);
  }
  const instructions = instructionsBudget(
    analyser.instructionSources(),
    model,
    settings.instructions,
    (text) => tokenizer.count(text),
    ...(options.instructionLocations ? [options.instructionLocations] : []),
  );
  const over = instructionsBudgetFinding(instructions);
  if (over) found.push(...suppressed({ text: texts.get(over.file) ?? '', settings }, [[over]]));
  const findings = found.map((f) => ({
    ...f,
    range: locate(f.file, f.range),
    relatedFiles: (f.relatedFiles ?? []).map((r) => ({ ...r, range: locate(r.file, r.range) })),
  }));

  const count = (severity: FindingSeverity): number => findings.filter((f) => f.severity === severity).length;
  return {
    schemaVersion: 1,
    target: {
      label: model.label,
      serving: model.serving,
      scenario: model.scenario,
      tokenizer: tokenizer.id,
      contextWindow: model.contextWindow ?? null,
      cacheRule: model.cacheRule ?? null,
      ...(corrected
        ? { tokensCorrected: { requests: corrected.requests, formula: correctionFormula(corrected) } }
        : {}),
    },
    files,
    cacheGroups: analyser.groups().map((g) => ({
      ...g,
      members: g.members.map((m) => ({ ...m, prefixEnd: locate(m.file, { start: m.prefixEnd, end: m.prefixEnd }) })),
    })),
    findings,
    instructions,
    summary: {
      files: files.length,
      error: count('error'),
      warning: count('warning'),
      information: count('information'),
    },
  };
}

/** Whether any finding is at or above the given severity (the CLI's `--fail-on`). */
export function hasFindingsAtOrAbove(report: PromptReport, level: FindingSeverity): boolean {
  return report.findings.some((f) => SEVERITY_RANK[f.severity] >= SEVERITY_RANK[level]);
}
