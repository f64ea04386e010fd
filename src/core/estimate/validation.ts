import { z } from 'zod';
import { precisionSchema } from './schemas';
import { prefillTime, type Scenario } from './selfHosted';
import { resolveTarget } from './targets';
import type { Tables } from './tables';
import { estimate } from './estimate';

/** A measured batch-1 point: either client TTFT or raw prefill throughput (no server overhead). */
export const validationPointSchema = z.object({
  id: z.string().min(1),
  model: z.string().min(1),
  hardware: z.string().min(1),
  gpus: z.number().int().positive(),
  precision: precisionSchema,
  metric: z.enum(['ttft_ms', 'prefill_tokens_per_s']),
  inputTokens: z.number().int().positive(),
  measured: z.number().finite().positive(),
  engine: z.string().min(1),
  /**
   * Which point of the efficiency band this engine corresponds to (llama.cpp: low, vLLM/SGLang: typical, TensorRT-LLM:
   * high).
   */
  engineTier: z.enum(['low', 'typical', 'high']),
  /** 'fit': used to set its class's band values (in-sample); 'check': held out. */
  role: z.enum(['fit', 'check']),
  measures: z.string().min(1),
  source: z.string().min(1),
  url: z.string().url(),
  date: z.string().min(4),
});
export type ValidationPoint = z.infer<typeof validationPointSchema>;

export const validationFileSchema = z.object({
  goalMedianAbsPctError: z.number().positive(),
  points: z.array(validationPointSchema).min(1),
  excluded: z.array(z.object({ what: z.string(), why: z.string() })).optional(),
});

export interface ValidationRow {
  point: ValidationPoint;
  /** Both in milliseconds (throughput points converted to prefill time). */
  measuredMs: number;
  predictedMs: number;
  /** (predicted − measured) / measured × 100 */
  errorPct: number;
}

export function predictPoint(point: ValidationPoint, tables: Tables): ValidationRow {
  const target = resolveTarget(
    { kind: 'self-hosted', model: point.model, hardware: point.hardware, gpus: point.gpus, precision: point.precision },
    tables,
  );
  if (target.kind !== 'self-hosted') throw new Error('validation points are self-hosted targets');
  const scenario: Scenario = point.engineTier;
  let predictedMs: number;
  let measuredMs: number;
  if (point.metric === 'prefill_tokens_per_s') {
    const p = prefillTime(target, point.inputTokens, 0, scenario);
    predictedMs = p.totalMs - p.overheadMs;
    measuredMs = (point.inputTokens / point.measured) * 1000;
  } else {
    const e = estimate(target, { inputTokens: point.inputTokens, outputTokens: 1 });
    predictedMs = scenario === 'typical' ? e.ttftMs.p50 : scenario === 'high' ? e.ttftMs.low : e.ttftMs.high;
    measuredMs = point.measured;
  }
  return { point, measuredMs, predictedMs, errorPct: ((predictedMs - measuredMs) / measuredMs) * 100 };
}

export function medianAbsPctError(rows: readonly ValidationRow[]): number {
  const errors = rows.map((r) => Math.abs(r.errorPct)).sort((a, b) => a - b);
  if (errors.length === 0) return Number.NaN;
  const mid = Math.floor(errors.length / 2);
  return errors.length % 2 === 1
    ? (errors[mid] as number)
    : ((errors[mid - 1] as number) + (errors[mid] as number)) / 2;
}
