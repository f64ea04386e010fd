import type { CalibrationProfile } from '../estimate';

export interface Sample {
  /** Prompt tokens of the request. */
  inputTokens: number;
  ttftMs: number;
}

export interface TtftFit {
  /** TTFT ≈ a + b·n (+ c·n²) with n in tokens and TTFT in ms. */
  a: number;
  b: number;
  c?: number;
  /** Coefficient of determination of the chosen fit on the samples. */
  r2: number;
  /** Root-mean-square residual, ms. */
  rmseMs: number;
  model: 'linear' | 'quadratic';
}

/** Below this R² a fit explains too little of TTFT's variation to replace the table's model. */
export const MIN_R2 = 0.8;

/**
 * Least-squares fit of TTFT against prompt length. The quadratic term (attention's n²) is kept only
 * when it is positive and cuts the residual error by at least a fifth: with few lengths a free
 * quadratic would otherwise chase noise.
 */
export function fitTtft(samples: readonly Sample[]): TtftFit | undefined {
  const points = samples.filter((s) => Number.isFinite(s.inputTokens) && Number.isFinite(s.ttftMs));
  const lengths = new Set(points.map((p) => p.inputTokens));
  if (lengths.size < 2) return undefined;
  const linear = leastSquares(points, 1);
  if (!linear) return undefined;
  const linearFit = evaluate(points, linear, 'linear');
  const quad = lengths.size >= 3 ? leastSquares(points, 2) : undefined;
  if (quad && (quad[2] ?? 0) > 0) {
    const quadFit = evaluate(points, quad, 'quadratic');
    if (quadFit.rmseMs < linearFit.rmseMs * 0.8) return quadFit;
  }
  return linearFit;
}

/** The fit as the estimation engine's calibration profile; TPOT is the measured median. */
export function toProfile(fit: TtftFit, tpotMs: number, date: string): CalibrationProfile {
  return {
    ttftBaseMs: Math.max(0, fit.a),
    msPerInputToken: Math.max(0, fit.b),
    ...(fit.c !== undefined ? { msPerInputToken2: fit.c } : {}),
    tpotMs,
    date,
  };
}

function evaluate(points: readonly Sample[], coef: number[], model: TtftFit['model']): TtftFit {
  const predict = (n: number) => coef.reduce((sum, k, i) => sum + k * n ** i, 0);
  const mean = points.reduce((s, p) => s + p.ttftMs, 0) / points.length;
  let ssRes = 0;
  let ssTot = 0;
  for (const p of points) {
    ssRes += (p.ttftMs - predict(p.inputTokens)) ** 2;
    ssTot += (p.ttftMs - mean) ** 2;
  }
  const r2 = ssTot === 0 ? (ssRes === 0 ? 1 : 0) : 1 - ssRes / ssTot;
  return {
    a: coef[0] ?? 0,
    b: coef[1] ?? 0,
    ...(model === 'quadratic' ? { c: coef[2] ?? 0 } : {}),
    r2,
    rmseMs: Math.sqrt(ssRes / points.length),
    model,
  };
}

/** Polynomial least squares via the normal equations (degree ≤ 2, n scaled for conditioning). */
function leastSquares(points: readonly Sample[], degree: number): number[] | undefined {
  const scale = Math.max(...points.map((p) => p.inputTokens)) || 1;
  const size = degree + 1;
  const m = Array.from({ length: size }, () => new Array<number>(size + 1).fill(0));
  for (const p of points) {
    const x = p.inputTokens / scale;
    for (let r = 0; r < size; r++) {
      for (let c = 0; c < size; c++) m[r]![c]! += x ** (r + c);
      m[r]![size]! += p.ttftMs * x ** r;
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
