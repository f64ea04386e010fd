import { estimate, parseTargetId, resolveTarget, type CalibrationProfile, type Tables } from '../estimate';

export type Prediction = { ok: true; ttftMs: number; tpotMs: number } | { ok: false; error: string };

/**
 * What the estimation engine predicts for an endpoint mapped to a target (cold prompt, one request
 * at a time), to show beside the measurement. A measured calibration profile replaces the model.
 */
export function predictEndpoint(tables: Tables, targetId: string, inputTokens: number, outputTokens: number, calibrationFor?: (resolvedId: string) => CalibrationProfile | undefined): Prediction {
  try {
    const target = resolveTarget(parseTargetId(targetId), tables);
    const calibration = calibrationFor?.(target.id);
    const e = estimate(target, { inputTokens, outputTokens, ...(calibration ? { calibration } : {}) });
    return { ok: true, ttftMs: e.coldTtftMs.p50, tpotMs: e.tpotMs.p50 };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
