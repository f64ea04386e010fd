// The tools' work, without an editor: the editor's analysis engine (parse → counts per target
// tokenizer → workspace findings and cacheable prefix) and its per-target estimates, the Compare
// ranking and the report. Adapters only find files and turn answers into their protocol.
import { AnalysisEngine, type EngineConfig } from '../analysis/engine';
import { estimateTarget } from '../analysis/targetEstimates';
import {
  promptSloSettings,
  resolveProfile,
  type CompareResult,
  type SloSettings,
  type WorkloadProfile,
} from '../compare';
import { countPrompt, promptTokenCounter, type PromptCount } from '../count';
import {
  estimate,
  parseTargetId,
  resolveTarget,
  targetCountKey,
  targetTokenizerId,
  targetModelId,
  type CacheTtl,
  type Estimate,
  type ResolvedTarget,
} from '../estimate';
import type { PromptReport, ReportFileInput } from '../findings/report';
import { parsePrompt } from '../prompt/parse';
import { tokenizerFor } from '../tokenize/models';
import { getTokenizer } from '../tokenize/registry';
import type { TokenizerId } from '../tokenize/types';
import type { PromptAnalysis } from './answers';

/** Settings and tables as the editor's engine takes them, plus the cache TTL writes are priced at. */
export interface AgentConfig extends EngineConfig {
  cacheTtl?: CacheTtl;
}

export interface PromptFile {
  /** Workspace-relative, forward slashes: how findings name it. */
  path: string;
  text: string;
}

/** Targets named by id, resolved against the tables (a TargetError names the closest ids). */
export function resolveTargets(ids: readonly string[], config: Pick<EngineConfig, 'tables'>): ResolvedTarget[] {
  return ids.map((id) => resolveTarget(parseTargetId(id), config.tables));
}

/** The file's own profile, then the agent's scenario field by field (as compare's flags do). */
function scenarioProfile(text: string, scenario: SloSettings | undefined) {
  const fromFile = promptSloSettings(text);
  return { profile: resolveProfile({ ...fromFile.slo, ...scenario }), problems: fromFile.problems };
}

/** Findings priced at the agent's scenario, as the editor prices them at its profile. */
function withWorkload(config: AgentConfig, profile: WorkloadProfile): AgentConfig {
  return { ...config, workload: { concurrency: profile.concurrency, outputTokens: profile.outputTokens } };
}

/** Counts, findings against the workspace, and the cacheable prefix of one prompt. */
async function analysed(config: AgentConfig, prompt: PromptFile, workspace: readonly ReportFileInput[]) {
  const engine = new AnalysisEngine();
  engine.configure(config);
  const request = { key: prompt.path, file: prompt.path, fileName: prompt.path, text: prompt.text, edits: [] };
  const first = await engine.count({ ...request, version: 1 });
  if (!first) throw new Error(`${prompt.path}: the count was superseded`);
  // Shared prefixes need every other prompt of the workspace on the primary target's analyser.
  await engine.scan(
    first.targets[0]!.id,
    workspace.filter((f) => f.path !== prompt.path),
  );
  const found = await engine.findings(prompt.path, 1);
  if (!found) throw new Error(`${prompt.path}: the findings were superseded`);
  return { engine, counted: first, found };
}

/** Everything the hover shows for one prompt: counts, per-target cold/warm estimates, findings. */
export async function analyzePrompt(
  config: AgentConfig,
  prompt: PromptFile,
  workspace: readonly ReportFileInput[],
  scenario?: SloSettings,
): Promise<{ analysis: PromptAnalysis; problems: string[] }> {
  const { profile, problems } = scenarioProfile(prompt.text, scenario);
  const { counted, found } = await analysed(withWorkload(config, profile), prompt, workspace);
  const at = new Date();
  const targets = counted.targets.map((target) =>
    estimateTarget({
      target,
      count: counted.counts[targetCountKey(target)]!,
      prefixTokens: found.cacheable?.tokens ?? 0,
      slo: profile,
      ...(config.cacheTtl ? { cacheTtl: config.cacheTtl } : {}),
      at,
    }),
  );
  return {
    analysis: {
      count: counted.counts[targetCountKey(counted.targets[0]!)]!,
      targets,
      findings: found.findings,
      ...(found.cacheable ? { cacheable: found.cacheable } : {}),
      profile,
      ...(counted.frontMatterTarget ? { frontMatterTarget: counted.frontMatterTarget } : {}),
    },
    problems,
  };
}

/** The Compare Targets ranking, warm on the prompt's cacheable prefix as the editor's view is. */
export async function comparePrompt(
  config: AgentConfig,
  prompt: PromptFile,
  workspace: readonly ReportFileInput[],
  scenario?: SloSettings,
): Promise<{ result: CompareResult; problems: string[] }> {
  const { profile, problems } = scenarioProfile(prompt.text, scenario);
  const { engine, found } = await analysed(withWorkload(config, profile), prompt, workspace);
  const result = engine.compare(prompt.path, {
    profile,
    ...(found.cacheable ? { cachedTokens: found.cacheable.tokens } : {}),
    calibrations: {},
    ...(config.cacheTtl ? { cacheTtl: config.cacheTtl } : {}),
  });
  return { result, problems };
}

/** The workspace report on the primary target. */
export function workspaceReport(config: AgentConfig, files: readonly ReportFileInput[]): PromptReport {
  const engine = new AnalysisEngine();
  engine.configure(config);
  return engine.report(files);
}

/**
 * `prompt-lens count`'s count of one file: the front matter model's tokenizer unless one is forced; a target's
 * model (`--target`) renders its chat template as the editor's count for that target does.
 */
export function countFile(prompt: PromptFile, forced?: TokenizerId, model?: string): PromptCount {
  const parsed = parsePrompt(prompt.path, prompt.text);
  return countPrompt(parsed, getTokenizer(forced ?? tokenizerFor(parsed.settings.model)), undefined, model);
}

export interface FileEstimate {
  estimate: Estimate;
  tokenizer: string;
  tokensExact: boolean;
}

/** `prompt-lens estimate FILE`'s estimate: the target's count of the prompt, then estimate(). */
export function estimateFile(
  target: ResolvedTarget,
  prompt: PromptFile,
  request: { cachedTokens?: number; outputTokens?: number; concurrency?: number; cacheTtl?: CacheTtl },
): FileEstimate {
  const tokens = promptTokenCounter(parsePrompt(prompt.path, prompt.text))(
    targetTokenizerId(target),
    targetModelId(target),
  );
  if ((request.cachedTokens ?? 0) > tokens.tokens)
    throw new Error(`cachedTokens ${request.cachedTokens} exceeds the prompt's ${tokens.tokens} input tokens`);
  const result = estimate(target, { inputTokens: tokens.tokens, cachedTokens: 0, ...request, at: new Date() });
  return { estimate: result, tokenizer: tokens.tokenizer, tokensExact: tokens.exact };
}
