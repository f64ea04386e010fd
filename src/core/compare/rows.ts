import {
  contextWindowOf,
  retiredMessage,
  targetTokenizerId,
  targetModelId,
  type CacheTtl,
  type CalibrationProfile,
  type Estimate,
  type ResolvedTarget,
} from '../estimate';
import { coldScenario, isScenario, scenarioFigures, servingLabel, warmScenario } from '../estimate/scenarios';
import { correctTotal, type TokenCorrection } from '../calibrate/tokenCorrection';
import type { PromptTokenCounter } from '../count';
import { rowNotes } from './notes';
import type { CompareRow, SloMetric, WorkloadProfile } from './types';
import { replicaTimePerCall, replicaTokensPerSecond } from '../estimate/selfHostedCost';

export type { CompareRow, SloMetric } from './types';

export interface RowContext {
  profile: WorkloadProfile;
  cachedTokens: number;
  countTokens: PromptTokenCounter;
  calibrationFor?: (targetId: string) => CalibrationProfile | undefined;
  /** The correction of a target's approximate counts by its endpoint's bills, when a benchmark fitted one. */
  correctionFor?: (targetId: string) => TokenCorrection | undefined;
  /** Which cache TTL writes ask for; default 5m. */
  cacheTtl?: CacheTtl;
  /** When the calls are made, for time-of-day prices. */
  at?: Date;
}

/** Which limits the p99 TTFT and typical TPOT break; a null limit is no limit. */
export function failingMetrics(
  profile: Pick<WorkloadProfile, 'ttftMs' | 'tpotMs'>,
  ttftP99Ms: number,
  tpotMs: number,
): SloMetric[] {
  const failing: SloMetric[] = [];
  if (profile.ttftMs !== null && ttftP99Ms > profile.ttftMs) failing.push('ttft');
  if (profile.tpotMs !== null && tpotMs > profile.tpotMs) failing.push('tpot');
  return failing;
}

function verdictText(profile: WorkloadProfile, failing: SloMetric[], ttftP99Ms: number, tpotMs: number): string {
  if (failing.length === 0) return 'meets';
  return failing
    .map((m) =>
      m === 'ttft'
        ? `TTFT p99 ${Math.round(ttftP99Ms)} ms > ${profile.ttftMs} ms`
        : `TPOT ${tpotMs.toFixed(1)} ms > ${profile.tpotMs} ms`,
    )
    .join('; ');
}

/** Judges one target; undefined (with the reason) when the prompt plus output does not fit its context window. */
export function evaluateTarget(target: ResolvedTarget, ctx: RowContext): { row?: CompareRow; skipped?: string } {
  const { profile } = ctx;
  const counted = ctx.countTokens(targetTokenizerId(target), targetModelId(target));
  // An approximate count corrected by the target's endpoint's bills, as in the hover (tokenCorrection.ts).
  const total = correctTotal(counted.tokenizer, counted.tokens, ctx.correctionFor?.(target.id));
  const tokens = { ...counted, tokens: total.tokens };
  const retired = target.kind === 'provider' ? retiredMessage(target.provider) : undefined;
  if (retired) return { skipped: retired };
  const window = contextWindowOf(target);
  if (tokens.tokens + profile.outputTokens > window) {
    return {
      skipped: `${target.id}: ${tokens.tokens.toLocaleString('en-US')} input + ${profile.outputTokens} output tokens exceed the ${window.toLocaleString('en-US')}-token context window`,
    };
  }
  const calibration = ctx.calibrationFor?.(target.id);
  const options = {
    ...(calibration ? { calibration } : {}),
    ...(ctx.cacheTtl ? { cacheTtl: ctx.cacheTtl } : {}),
    ...(ctx.at ? { at: ctx.at } : {}),
  };
  // The same scenarios, and the same function, as the editor's hover and status bar.
  const coldFigures = scenarioFigures(target, coldScenario(profile, tokens.tokens), options);
  const warmCut = warmScenario(target, profile, tokens.tokens, ctx.cachedTokens);
  const warmFigures = isScenario(warmCut) ? scenarioFigures(target, warmCut, options) : undefined;
  const cold = coldFigures.estimate;
  const warm = (warmFigures ?? coldFigures).estimate;
  const cachedTokens = warmFigures?.scenario.cachedTokens ?? 0;

  const failing = failingMetrics(profile, warm.concurrencyTtftMs.p99, warm.tpotMs.p50);
  const coldFailing = failingMetrics(profile, cold.concurrencyTtftMs.p99, cold.tpotMs.p50);
  const replica =
    target.kind === 'self-hosted'
      ? replicaTimePerCall(
          warm.prefill ?? { computeMs: 0, memoryMs: 0, commMs: 0 },
          warm.tpotMs.p50,
          warm.outputTokens,
          warm.concurrency,
        )
      : undefined;
  const price = target.kind === 'self-hosted' ? target.hardware.usdPerHour : undefined;
  const per1kUsd = (warmFigures ?? coldFigures).costPer1kCallsUsd;
  if (per1kUsd === null)
    return { skipped: `${target.id}: no $/GPU-hour (usdPerHour) on hardware row: latency only, not ranked` };
  const row: CompareRow = {
    target: target.id,
    kind: target.kind,
    ...(target.kind === 'self-hosted'
      ? {
          deployment: {
            model: target.model.id,
            hardware: target.hardware.id,
            gpus: target.gpus,
            precision: target.precision,
            usdPerGpuHour: price?.value ?? 0,
            priceSource: price ? `${price.source}, ${price.date}` : '',
          },
        }
      : {}),
    serving: servingLabel(target),
    inputTokens: tokens.tokens,
    tokensExact: tokens.exact,
    ...(total.corrected ? { tokensCorrected: total.corrected } : {}),
    cachedTokens,
    ...(ctx.cachedTokens > 0 && !isScenario(warmCut) ? { noWarm: warmCut.reason } : {}),
    ttftMs: { p50: warm.concurrencyTtftMs.p50, p99: warm.concurrencyTtftMs.p99 },
    coldTtftMs: { p50: cold.concurrencyTtftMs.p50, p99: cold.concurrencyTtftMs.p99 },
    tpotMs: warm.tpotMs.p50,
    e2eMs: warm.e2eMs.p50,
    meetsSlo: failing.length === 0,
    failing,
    verdict: verdictText(profile, failing, warm.concurrencyTtftMs.p99, warm.tpotMs.p50),
    coldMeetsSlo: coldFailing.length === 0,
    costPer1kCallsUsd: per1kUsd,
    costPerMOutputUsd: (per1kUsd / (1000 * profile.outputTokens)) * 1e6,
    throughputTokPerS: replica
      ? replicaTokensPerSecond(replica, warm.outputTokens)
      : (profile.concurrency * profile.outputTokens * 1000) / warm.e2eMs.p50,
    prefillBound: warm.bound,
    decodeBound: target.kind === 'self-hosted' && !warm.calibrated ? (warm.decode?.bound ?? null) : null,
    calibrated: warm.calibrated,
    latencyBasis: warm.calibrated
      ? 'calibrated'
      : target.kind === 'provider'
        ? target.provider.latency.basis
        : 'modelled',
    notes: warm.calibrated ? [`latency from the calibrated profile measured ${calibration?.date ?? ''}`] : [],
  };
  // One request in flight tells whether concurrency, not the target itself, breaks the SLO.
  const singleRequestMeets =
    target.kind === 'self-hosted' && failing.length > 0 && profile.concurrency > 1
      ? failingMetrics(
          profile,
          ...singleRequest(
            scenarioFigures(target, { ...(warmFigures ?? coldFigures).scenario, concurrency: 1 }, options).estimate,
          ),
        ).length === 0
      : undefined;
  row.notes.push(
    ...rowNotes(row, profile, {
      singleRequestMeets,
      bandwidthTBs: target.kind === 'self-hosted' ? target.hardware.memoryBandwidth / 1e12 : undefined,
    }),
  );
  return { row };
}

function singleRequest(e: Estimate): [number, number] {
  return [e.concurrencyTtftMs.p99, e.tpotMs.p50];
}
