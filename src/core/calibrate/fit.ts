import { percentile } from '../bench/stats';
import type { CalibrationProfile } from '../estimate';

/** The cold TTFTs measured at one prompt length. */
export interface LengthSamples {
  /** Prompt tokens of the requests (the endpoint's count or the local one: see profileFile.ts). */
  tokens: number;
  ttftMs: readonly number[];
}

export interface TtftFit {
  /** TTFT ≈ a + b·n (+ c·n²) with n in tokens and TTFT in ms. */
  a: number;
  b: number;
  c?: number;
  /**
   * Share of the variance of the lengths' median TTFTs that the fit explains: the medians are what
   * it is fitted to and predicts, so this is the statistic a fit is accepted or refused on.
   */
  r2: number;
  /**
   * Share of the variance of single requests' TTFTs that the fit explains: low when requests
   * scatter (a shared host, a busy endpoint) however well the medians line up. Reported, not gated on.
   */
  r2Requests: number;
  /** Root-mean-square residual over all samples, ms. */
  rmseMs: number;
  /** The fit's TTFT at the longest length less at the shortest, ms. */
  riseMs: number;
  /**
   * Three standard errors of that difference, from the spread of the two lengths' samples: a rise
   * below it is not told apart from noise (a length with one sample has no spread to go by: 0).
   */
  riseNoiseMs: number;
  model: 'linear' | 'quadratic';
  /**
   * Per length: the median TTFT, the middle 80 % of its requests' TTFTs (p10–p90: how far one request
   * strays), the fit's value there, and median − fit.
   */
  residuals: {
    tokens: number;
    medianMs: number;
    p10Ms: number;
    p90Ms: number;
    fitMs: number;
    residualMs: number;
    samples: number;
  }[];
}

/**
 * Below this R² (at the medians) a fit explains too little of how TTFT grows with length to replace
 * the table's model. Two lengths give a line through both medians (R² 1): only its rise is checked.
 */
export const MIN_R2 = 0.8;

/**
 * Least-squares fit of TTFT against prompt length, through each length's median: a load spike on
 * a shared machine or endpoint moves a mean, not a median. The quadratic term (attention's n²) is
 * kept only when it is positive and the straight line misses some median by more than three
 * standard errors of that median (from the spread of its samples) — with three lengths a quadratic
 * always passes through all three medians, so only evidence of curvature beyond noise earns it.
 * With four or more lengths it must also cut the residual at the medians by a fifth.
 */
export function fitTtft(lengths: readonly LengthSamples[]): TtftFit | undefined {
  const measured = lengths
    // Sorted once: the median, p10 and p90 read them.
    .map((l) => ({ tokens: l.tokens, samples: l.ttftMs.filter(Number.isFinite).sort((x, y) => x - y) }))
    .filter((l) => Number.isFinite(l.tokens) && l.samples.length > 0);
  const points = measured.map((l) => ({ x: l.tokens, y: percentile(l.samples, 50) }));
  if (new Set(points.map((p) => p.x)).size < 2) return undefined;
  const linear = leastSquares(points, 1);
  if (!linear) return undefined;
  let coef = linear;
  const quad = points.length >= 3 ? leastSquares(points, 2) : undefined;
  if (quad && (quad[2] ?? 0) > 0) {
    const misses = points.map((p) => Math.abs(p.y - polynomial(linear, p.x)));
    const noise = Math.max(...measured.map((l) => standardErrorOfMedian(l.samples)));
    const curved = Math.max(...misses) > 3 * noise;
    const better = points.length === 3 || rms(points, quad) < 0.8 * rms(points, linear);
    if (curved && better) coef = quad;
  }
  const samples = measured.flatMap((l) => l.samples.map((y) => ({ x: l.tokens, y })));
  const requests = explained(samples, coef);
  const byLength = [...measured].sort((p, q) => p.tokens - q.tokens);
  const [shortest, longest] = [byLength[0]!, byLength[byLength.length - 1]!];
  return {
    a: coef[0] ?? 0,
    b: coef[1] ?? 0,
    ...(coef.length === 3 ? { c: coef[2] ?? 0 } : {}),
    r2: explained(points, coef).r2,
    r2Requests: requests.r2,
    rmseMs: Math.sqrt(requests.ssRes / samples.length),
    riseMs: polynomial(coef, longest.tokens) - polynomial(coef, shortest.tokens),
    riseNoiseMs: 3 * Math.hypot(standardErrorOfMedian(shortest.samples), standardErrorOfMedian(longest.samples)),
    model: coef.length === 3 ? 'quadratic' : 'linear',
    residuals: measured.map((l, i) => {
      const fitMs = polynomial(coef, l.tokens);
      return {
        tokens: l.tokens,
        medianMs: points[i]!.y,
        p10Ms: percentile(l.samples, 10),
        p90Ms: percentile(l.samples, 90),
        fitMs,
        residualMs: points[i]!.y - fitMs,
        samples: l.samples.length,
      };
    }),
  };
}

/**
 * "R² 0.990 at the medians, 0.62 over single requests". A profile without `r2Requests` was written
 * before 2026-12-03, when its one R² was over single requests: it is labelled so.
 */
export function r2Text(fit: { r2: number; r2Requests?: number }): string {
  if (fit.r2Requests === undefined) return `R² ${fit.r2.toFixed(3)} over single requests`;
  return `R² ${fit.r2.toFixed(3)} at the medians, ${fit.r2Requests.toFixed(2)} over single requests`;
}

/** The fit's TTFT at n tokens. */
export function fitTtftAt(fit: Pick<TtftFit, 'a' | 'b' | 'c'>, n: number): number {
  return fit.a + fit.b * n + (fit.c ?? 0) * n * n;
}

/**
 * The fit as the estimation engine's calibration profile, coefficient for coefficient (a negative
 * intercept included, so profile and fit predict alike); TPOT is the measured median. The caller
 * rejects a fit whose slope is not positive.
 */
export function toProfile(fit: TtftFit, tpotMs: number, date: string): CalibrationProfile {
  return {
    ttftBaseMs: fit.a,
    msPerInputToken: Math.max(0, fit.b),
    ...(fit.c !== undefined ? { msPerInputToken2: fit.c } : {}),
    tpotMs,
    date,
  };
}

export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/**
 * Standard error of a sample median, ≈ 1.2533·σ/√k with σ estimated robustly as 1.4826 × the
 * median absolute deviation; 0 for a single sample (no spread to go by).
 */
function standardErrorOfMedian(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = median(values);
  const sigma = 1.4826 * median(values.map((v) => Math.abs(v - m)));
  return (1.2533 * sigma) / Math.sqrt(values.length);
}

type Point = { x: number; y: number };

function polynomial(coef: readonly number[], x: number): number {
  return coef.reduce((sum, k, i) => sum + k * x ** i, 0);
}

/** R² of the fit over the points (1 − residual / total sum of squares), and the residual sum. */
function explained(points: readonly Point[], coef: readonly number[]): { r2: number; ssRes: number } {
  const mean = points.reduce((s, p) => s + p.y, 0) / points.length;
  let ssRes = 0;
  let ssTot = 0;
  for (const p of points) {
    ssRes += (p.y - polynomial(coef, p.x)) ** 2;
    ssTot += (p.y - mean) ** 2;
  }
  return { r2: ssTot === 0 ? (ssRes === 0 ? 1 : 0) : 1 - ssRes / ssTot, ssRes };
}

function rms(points: readonly Point[], coef: readonly number[]): number {
  return Math.sqrt(points.reduce((s, p) => s + (p.y - polynomial(coef, p.x)) ** 2, 0) / points.length);
}

/** Polynomial least squares via the normal equations (degree ≤ 2, x scaled for conditioning). */
export function leastSquares(points: readonly Point[], degree: number): number[] | undefined {
  const scale = Math.max(...points.map((p) => Math.abs(p.x))) || 1;
  const size = degree + 1;
  const m = Array.from({ length: size }, () => new Array<number>(size + 1).fill(0));
  for (const p of points) {
    const x = p.x / scale;
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) m[r]![c]! += x ** (r + c);
      m[r]![size]! += p.y * x ** r;
    }
  }
  // Gaussian elimination with partial pivoting.
  for (let col = 0; col < size; col++) {
    let pivot = col;
    for (let r = col + 1; r < size; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return undefined;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < size; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= size; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[size]! / row[i]! / scale ** i);
}
