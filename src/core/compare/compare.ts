import { correctionDetail, type TokenCorrection } from '../calibrate/tokenCorrection';
import type { PromptTokenCounter } from '../count';
import {
  DEFAULT_ENGINE,
  DEFAULT_SCOPE,
  type CacheTtl,
  type CalibrationProfile,
  type ModelRow,
  type ResolvedTarget,
  type Tables,
  type TargetAssumptions,
} from '../estimate';
import { workloadLabel } from '../estimate/scenarios';
import { formatCount, formatMs, formatUsd } from '../format';
import { providerCandidates, selfHostedCandidates, GPU_COUNTS } from './candidates';
import { addCheaperWiderNotes } from './notes';
import { describeProfile } from './profiles';
import { cheapestMeeting, sortRows } from './rank';
import { evaluateTarget } from './rows';
import type { CompareResult, CompareRow, WorkloadProfile } from './types';

export interface CompareRequest {
  tables: Tables;
  profile: WorkloadProfile;
  /** The prompt's input tokens under a tokenizer (see promptTokenCounter). */
  countTokens: PromptTokenCounter;
  /** Tokens of the prompt's prefix already cached (warm case); 0 or absent: cold only. */
  cachedTokens?: number;
  /** The open-weight model deployed on each hardware row (see selfHostedModel); absent: providers only. */
  model?: ModelRow;
  calibrationFor?: (targetId: string) => CalibrationProfile | undefined;
  /** The correction of a target's approximate counts by its endpoint's bills (tokenCorrection.ts). */
  correctionFor?: (targetId: string) => TokenCorrection | undefined;
  /** Which cache TTL writes ask for; default 5m. */
  cacheTtl?: CacheTtl;
  /** When the calls are made, for time-of-day prices; default: now. */
  at?: Date;
  /** Engine and scope for self-hosted rows (else vLLM over HTTP). */
  assume?: TargetAssumptions;
}

export type { CompareResult } from './types';

export function compareTargets(request: CompareRequest): CompareResult {
  const { tables, profile, model } = request;
  const ctx = {
    profile,
    cachedTokens: request.cachedTokens ?? 0,
    countTokens: request.countTokens,
    ...(request.calibrationFor ? { calibrationFor: request.calibrationFor } : {}),
    ...(request.correctionFor ? { correctionFor: request.correctionFor } : {}),
    ...(request.cacheTtl ? { cacheTtl: request.cacheTtl } : {}),
    at: request.at ?? new Date(),
  };
  const skipped: string[] = [];
  const targets: ResolvedTarget[] = [...providerCandidates(tables)];
  if (model) {
    // The batch's KV cache must fit beside the weights: C sequences of prompt + output.
    const kvTokens =
      profile.concurrency * (request.countTokens(model.tokenizer, model.id).tokens + profile.outputTokens);
    const selfHosted = selfHostedCandidates(model, tables, kvTokens, request.assume);
    targets.push(...selfHosted.targets);
    skipped.push(...selfHosted.skipped);
  }
  const rows: CompareRow[] = [];
  for (const target of targets) {
    const evaluated = evaluateTarget(target, ctx);
    if (evaluated.row) rows.push(evaluated.row);
    if (evaluated.skipped) skipped.push(evaluated.skipped);
  }
  addCheaperWiderNotes(rows);
  return {
    profile,
    model: model?.id ?? null,
    rows: sortRows(rows, profile.rankBy),
    scenario: tableScenario(profile, rows),
    assumptions: assumptions(profile, model, rows, { ttl: request.cacheTtl ?? '5m', at: ctx.at }, request.assume ?? {}),
    skipped,
  };
}

/** Cold unless a cached prefix was given; then warm on the targets whose cache rule keeps some of it. */
function tableScenario(profile: WorkloadProfile, rows: readonly CompareRow[]): string {
  const cached = Math.max(0, ...rows.map((r) => r.cachedTokens));
  const cache =
    cached > 0 ? `warm (up to ${formatCount(cached)} tokens cached) where the target caches, else cold` : 'cold';
  return `Figures per call: ${cache}, ${workloadLabel(profile)}.`;
}

function assumptions(
  profile: WorkloadProfile,
  model: ModelRow | undefined,
  rows: CompareRow[],
  pricing: { ttl: CacheTtl; at: Date },
  assume: TargetAssumptions,
): string[] {
  const c = profile.concurrency;
  const lines = [
    `Profile ${describeProfile(profile)}.`,
    `Verdict: TTFT p99 with ${c} request(s) arriving together (burst queueing model) and typical TPOT at decode batch ${c}; warm when a cached prefix is given.`,
    model
      ? `Self-hosted: ${model.id} on every hardware row at each supported precision (${model.precisions.join(', ')}), at the fewest GPUs (${GPU_COUNTS.join(', ')}) whose 90% usable memory holds the weights plus KV cache for ${c} × (prompt + ${profile.outputTokens} output) tokens, and at twice that.`
      : 'No self-hosted rows: the prompt names no open-weight model; choose one (--model ID).',
    `Self-hosted engine: ${assume.engine ?? DEFAULT_ENGINE} where it runs, else the vendor's fallback (each row's id ends in +ENGINE); scope ${assume.scope ?? DEFAULT_SCOPE} (${(assume.scope ?? DEFAULT_SCOPE) === 'http' ? 'TTFT includes the HTTP server' : 'no HTTP server'}). Hardware rows without a price are left out.`,
    `Self-hosted cost: GPUs × $/GPU-hour (the hardware row's usdPerHour, overridable) × the replica time one call takes with the replica kept busy at batch ${c}: its share of a wave of ${c} prefills (max(${c} × compute, one weight read) ÷ ${c} + tensor-parallel communication) plus output tokens × TPOT ÷ ${c}. Idle time is not charged: below that load a call costs more.`,
    `Provider cost: list prices; with a cached prefix, 1,000 calls are one cold call and 999 warm ones; cache writes ask for the ${pricing.ttl} TTL where the provider offers it; time-of-day prices (DeepSeek peak hours) at ${pricing.at.toISOString().slice(0, 16)}Z.`,
    '$ per million output tokens: the whole call (input and output) ÷ its output tokens.',
    `Throughput: self-hosted, output tokens/s of one replica at batch ${c}; provider, ${c} concurrent streams of this client.`,
  ];
  if (rows.some((r) => !r.tokensExact))
    lines.push('Token counts are approximate for targets whose tokenizer is not available (o200k_base stands in).');
  for (const r of rows)
    if (r.tokensCorrected) lines.push(`Tokens of ${r.target} ${correctionDetail(r.tokensCorrected)}.`);
  return lines;
}

/** The hover's one line: the cheapest target meeting the profile's SLO, or that none does. */
export function cheapestMeetingLine(result: CompareResult): string {
  const best = cheapestMeeting(result.rows, result.profile.rankBy);
  if (!best) return `No target meets the ${result.profile.name} SLO for this prompt`;
  const cost =
    result.profile.rankBy === 'costPer1kCalls'
      ? `${formatUsd(best.costPer1kCallsUsd)} per 1,000 calls`
      : `${formatUsd(best.costPerMOutputUsd)} per M output tokens`;
  return `Cheapest meeting the ${result.profile.name} SLO: ${best.target}, ${cost} (TTFT p99 ${formatMs(best.ttftMs.p99)}, TPOT ${formatMs(best.tpotMs)})`;
}
