import type { CalibrationProfile } from '../estimate';

/** A calibration profile's cold TTFT at n tokens (in the profile's token basis), never below 0. */
export function profileTtftMs(profile: CalibrationProfile, n: number): number {
  return Math.max(0, profile.ttftBaseMs + profile.msPerInputToken * n + (profile.msPerInputToken2 ?? 0) * n * n);
}

export interface CalibratedLatency {
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  coldTtftMs: number;
  /** Only the uncached tokens prefilled: equals coldTtftMs when nothing is cached. */
  ttftMs: number;
  tpotMs: number;
  /** TTFT + TPOT × output tokens, as the estimation engine adds them. */
  e2eMs: number;
}

/**
 * What a profile alone predicts for one request (no target: no cost, no queueing model), as the
 * estimation engine's calibrated path does for a single request.
 */
export function calibratedLatency(
  profile: CalibrationProfile,
  request: { inputTokens: number; cachedTokens: number; outputTokens: number },
): CalibratedLatency {
  const cached = Math.min(request.cachedTokens, request.inputTokens);
  const ttftMs = profileTtftMs(profile, request.inputTokens - cached);
  return {
    ...request,
    cachedTokens: cached,
    coldTtftMs: profileTtftMs(profile, request.inputTokens),
    ttftMs,
    tpotMs: profile.tpotMs,
    e2eMs: ttftMs + profile.tpotMs * request.outputTokens,
  };
}
