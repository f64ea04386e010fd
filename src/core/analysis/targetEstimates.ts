// What the editor shows per target for one prompt: cold and warm estimates, the phase that bounds
// latency, and one line of advice when a threshold is crossed. Pure; the adapters only format it.
import { formatMs } from '../format';
import type { WorkloadProfile } from '../compare';
import type { AppliedCorrection } from '../calibrate/tokenCorrection';
import type { PromptCount } from '../count';
import {
  retiredMessage,
  targetErrors,
  targetLabel,
  type CacheTtl,
  type CalibrationProfile,
  type Estimate,
  type ResolvedTarget,
} from '../estimate';
import {
  coldScenario,
  isScenario,
  scenarioFigures,
  servingLabel,
  warmScenario,
  type Figures,
  type NoWarm,
} from '../estimate/scenarios';

/** The SLO part of a workload profile; a null limit means the workload has none. */
export type Slo = Pick<WorkloadProfile, 'ttftMs' | 'tpotMs' | 'concurrency' | 'outputTokens'> & { name?: string };

export interface TargetEstimate {
  id: string;
  label: string;
  kind: ResolvedTarget['kind'];
  /** The serving stack and measurement scope assumed (servingLabel). */
  serving: string;
  /** Input tokens with this target's tokenizer (content + chat overhead). */
  inputTokens: number;
  exact: boolean;
  /** Set when `inputTokens` is corrected by an endpoint's billed counts (see PromptCount.corrected). */
  corrected?: AppliedCorrection;
  /** Cold at the workload's concurrency: nothing cached, what a first-time user waits. */
  cold: Figures;
  /** The static prefix served from the cache, at the same concurrency; absent when nothing is cacheable. */
  warm?: Figures;
  /** Why there is no warm figure (no static prefix, no prompt caching, below the cache minimum). */
  noWarm?: string;
  /** Which phase dominates end-to-end latency, and what bounds prefill. */
  phase: string;
  /** Date of the calibrated profile in use, if any. */
  calibratedOn?: string;
  /** At most one line, the most important crossed threshold. */
  advice?: string;
  /** Error-level problems (retired model, context window). */
  errors: string[];
  /** What the cost assumes (cache TTL and write fee, time-of-day period); providers only. */
  pricing: string[];
  /** Set when the target is a retired provider model (also one of `errors`). */
  retired?: string;
}

export interface TargetEstimateInput {
  target: ResolvedTarget;
  count: PromptCount;
  /** Tokens of the static prefix (up to the first dynamic element, never retrieved context); 0: none. */
  prefixTokens: number;
  /** Why there is no static prefix, when there is none. */
  noPrefix?: string;
  slo: Slo;
  calibration?: CalibrationProfile;
  /** Which cache TTL writes ask for (promptLens.cache.ttl); default 5m. */
  cacheTtl?: CacheTtl;
  /** When the calls are made, for time-of-day prices; default: now. */
  at?: Date;
}

export function estimateTarget({
  target,
  count,
  prefixTokens,
  noPrefix,
  slo,
  calibration,
  cacheTtl,
  at,
}: TargetEstimateInput): TargetEstimate {
  const options = {
    ...(calibration ? { calibration } : {}),
    ...(cacheTtl ? { cacheTtl } : {}),
    at: at ?? new Date(),
  };
  const cold = scenarioFigures(target, coldScenario(slo, count.inputTokens), options);
  const cut = warmScenario(target, slo, count.inputTokens, prefixTokens);
  const warm = isScenario(cut) ? scenarioFigures(target, cut, options) : undefined;
  const errors = targetErrors(target, count.inputTokens, targetLabel(target));
  const retired = target.kind === 'provider' ? retiredMessage(target.provider) : undefined;
  return {
    id: target.id,
    label: targetLabel(target),
    kind: target.kind,
    serving: servingLabel(target),
    inputTokens: count.inputTokens,
    exact: count.exact,
    ...(count.corrected ? { corrected: count.corrected } : {}),
    cold,
    ...(warm ? { warm } : { noWarm: prefixTokens <= 0 && noPrefix ? noPrefix : (cut as NoWarm).reason }),
    phase: phaseOf(cold.estimate),
    ...(calibration ? { calibratedOn: calibration.date } : {}),
    ...advice(cold, warm, slo),
    errors,
    pricing: cold.estimate.providerCost?.basis ?? [],
    ...(retired ? { retired } : {}),
  };
}

/** "decode-bound (TPOT × 256 tokens)" / "prefill-bound, compute" … */
function phaseOf(e: Estimate): string {
  const decodeMs = e.tpotMs.p50 * e.outputTokens;
  const bound = e.bound ? `prefill ${e.bound}-bound` : undefined;
  if (decodeMs > e.ttftMs.p50) return `decode dominates (${e.outputTokens} output tokens)${bound ? `; ${bound}` : ''}`;
  return `prefill dominates${e.bound ? ` (${e.bound}-bound)` : ''}`;
}

function advice(cold: Figures, warm: Figures | undefined, slo: Slo): { advice?: string } {
  const ttftP99 = cold.ttftP99Ms;
  if (slo.ttftMs !== null && ttftP99 > slo.ttftMs) {
    const atC = slo.concurrency > 1 ? ` at concurrency ${slo.concurrency}` : '';
    const cache = warm && warm.ttftP99Ms <= slo.ttftMs ? ' — a warm prefix cache meets it' : '';
    return {
      advice:
        `TTFT p99 ≈ ${formatMs(ttftP99)} is over the ${formatMs(slo.ttftMs)} ${slo.name ?? ''} SLO${atC}${cache}`.replace(
          '  ',
          ' ',
        ),
    };
  }
  if (slo.tpotMs !== null && cold.tpotMs.p50 > slo.tpotMs)
    return {
      advice: `TPOT ≈ ${formatMs(cold.tpotMs.p50)} is over the ${formatMs(slo.tpotMs)} SLO: decode is bandwidth-bound, more GPUs or a faster HBM helps`,
    };
  const fitNote = cold.estimate.notes.find((n) => n.includes('do not fit') || n.includes('KV cache'));
  return fitNote ? { advice: fitNote } : {};
}
