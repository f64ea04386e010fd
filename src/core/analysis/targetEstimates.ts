// What the editor shows per target for one prompt: cold and warm estimates, the phase that bounds
// latency, and one line of advice when a threshold is crossed. Pure; the adapters only format it.
import { formatMs } from '../format';
import type { WorkloadProfile } from '../compare';
import type { PromptCount } from '../count';
import {
  estimate,
  retiredMessage,
  targetErrors,
  targetLabel,
  type CacheTtl,
  type CalibrationProfile,
  type Estimate,
  type ResolvedTarget,
} from '../estimate';

/** The SLO part of a workload profile; a null limit means the workload has none. */
export type Slo = Pick<WorkloadProfile, 'ttftMs' | 'tpotMs' | 'concurrency' | 'outputTokens'> & { name?: string };

export interface TargetEstimate {
  id: string;
  label: string;
  kind: ResolvedTarget['kind'];
  /** Input tokens with this target's tokenizer (content + chat overhead). */
  inputTokens: number;
  exact: boolean;
  cold: Estimate;
  /** With the cacheable prefix served from the cache; absent when nothing is cacheable. */
  warm?: Estimate;
  cachedTokens: number;
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
  /** Prefix tokens a cache can serve (shared prefix or the static system prompt). */
  cacheableTokens: number;
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
  cacheableTokens,
  slo,
  calibration,
  cacheTtl,
  at,
}: TargetEstimateInput): TargetEstimate {
  const request = {
    inputTokens: count.inputTokens,
    outputTokens: slo.outputTokens,
    concurrency: slo.concurrency,
    ...(calibration ? { calibration } : {}),
    ...(cacheTtl ? { cacheTtl } : {}),
    at: at ?? new Date(),
  };
  const cold = estimate(target, request);
  const cachedTokens = Math.min(cacheableTokens, Math.max(0, count.inputTokens - 1));
  const warmEstimate = cachedTokens > 0 ? estimate(target, { ...request, cachedTokens }) : undefined;
  // A provider whose minimum the prefix misses computes it cold: no warm line then.
  const warm = warmEstimate && warmEstimate.ttftMs.p50 < cold.ttftMs.p50 ? warmEstimate : undefined;
  const errors = targetErrors(target, count.inputTokens, targetLabel(target));
  const retired = target.kind === 'provider' ? retiredMessage(target.provider) : undefined;
  return {
    id: target.id,
    label: targetLabel(target),
    kind: target.kind,
    inputTokens: count.inputTokens,
    exact: count.exact,
    cold,
    ...(warm ? { warm } : {}),
    cachedTokens: warm ? cachedTokens : 0,
    phase: phaseOf(cold),
    ...(calibration ? { calibratedOn: calibration.date } : {}),
    ...advice(cold, warm, slo),
    errors,
    pricing: cold.providerCost?.basis ?? [],
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

function advice(cold: Estimate, warm: Estimate | undefined, slo: Slo): { advice?: string } {
  const ttftP99 = cold.concurrencyTtftMs.p99;
  if (slo.ttftMs !== null && ttftP99 > slo.ttftMs) {
    const atC = slo.concurrency > 1 ? ` at concurrency ${slo.concurrency}` : '';
    const cache = warm && warm.concurrencyTtftMs.p99 <= slo.ttftMs ? ' — a warm prefix cache meets it' : '';
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
  const fitNote = cold.notes.find((n) => n.includes('do not fit') || n.includes('KV cache'));
  return fitNote ? { advice: fitNote } : {};
}
