import { formatCount } from '../format';
import { estimateCost, cacheableTokens, type CacheTtl, type CostEstimate } from './cost';
import { queuedPrefillMs } from './queue';
import type { CalibrationProfile, ProviderRow, Scope } from './schemas';
import {
  decodeStep,
  memoryFit,
  prefillFlops,
  prefillTime,
  type DecodeTime,
  type MemoryFit,
  type PrefillFlops,
  type PrefillTime,
} from './selfHosted';
import { targetErrors } from './problems';
import { assumptionLabel, type Parallelism, type ResolvedTarget, type SelfHostedTarget } from './targets';
import { replicaTimePerCall, selfHostedCallUsd } from './selfHostedCost';

export const DEFAULT_OUTPUT_TOKENS = 256;
/** Scatter assumed around a calibrated (measured) profile. */
const CALIBRATED_SPREAD = { low: 0.9, high: 1.1 };
/**
 * Scatter assumed around the modelled decode step. An assumption, not a measurement: the validation set
 * holds TTFT/prefill points only, so only the TTFT range is derived from residuals.
 */
export const DECODE_SPREAD = { low: 0.8, high: 1.25 };

export interface EstimateRequest {
  inputTokens: number;
  /** Prompt-prefix tokens already in the cache (warm case); cold is always shown beside it. */
  cachedTokens?: number;
  outputTokens?: number;
  concurrency?: number;
  /** A measured profile for this target: replaces the modelled latency. */
  calibration?: CalibrationProfile;
  cacheTtl?: CacheTtl;
  /** When the call is made, for time-of-day prices; default: now. */
  at?: Date;
}

/** p50 is the model's value; low and high are the fast and slow ends of its range. */
export interface Range {
  p50: number;
  low: number;
  high: number;
}

export interface SelfHostedCost {
  perCallUsd: number;
  per1kCallsUsd: number;
  usdPerGpuHour: number;
  basis: string;
}

/** What a self-hosted estimate assumed beyond the target's name. */
export interface Assumptions {
  engine: { id: string; name: string; versions: string; choice: SelfHostedTarget['engineChoice'] };
  /** The release range assumed ("llama.cpp current (b2000-b7000)"), the version given and the prefill factor. */
  release: { range: string; label: string; given?: string; prefillFactor: number; basis?: string };
  scope: Scope;
  parallel: Parallelism;
  /** How the TTFT range was derived (the engine class's band). */
  range: string;
  /** One line for surfaces: "vLLM · HTTP · TP 4". */
  label: string;
  /** The range in a few words: "×0.73–×2.1 of p50 (validation residuals, server engines)". */
  rangeLabel: string;
}

export interface Estimate {
  target: string;
  kind: 'self-hosted' | 'provider';
  /** Self-hosted only: engine, scope, parallelism and the range's derivation. */
  assumptions?: Assumptions;
  inputTokens: number;
  cachedTokens: number;
  outputTokens: number;
  concurrency: number;
  /** Prefill FLOPs of the warm case (new tokens after the cached ones); null for providers. */
  prefillFlops: PrefillFlops | null;
  coldPrefillFlops: PrefillFlops | null;
  /** What limits prefill (self-hosted); null for providers and calibrated targets. */
  bound: 'compute' | 'memory' | null;
  /** TTFT at this concurrency (median request), warm when cachedTokens > 0. */
  ttftMs: Range;
  coldTtftMs: Range;
  /** Median and 99th-percentile TTFT at this concurrency (typical scenario). */
  concurrencyTtftMs: { concurrency: number; p50: number; p99: number };
  tpotMs: Range;
  e2eMs: Range;
  /** Per call: warm when cachedTokens > 0, else cold; null for hardware without a price (latency only). */
  costUsd: number | null;
  costPer1kCallsUsd: number | null;
  providerCost?: CostEstimate;
  selfHostedCost?: SelfHostedCost;
  prefill?: PrefillTime;
  decode?: DecodeTime;
  memory?: MemoryFit;
  calibrated: boolean;
  /** Why a request to this target would fail (retired model, prompt over the context window). */
  errors: string[];
  notes: string[];
}

export function estimate(target: ResolvedTarget, request: EstimateRequest): Estimate {
  const inputTokens = request.inputTokens;
  const outputTokens = request.outputTokens ?? DEFAULT_OUTPUT_TOKENS;
  const concurrency = request.concurrency ?? 1;
  const cachedTokens = Math.min(request.cachedTokens ?? 0, inputTokens);
  const base = { target: target.id, inputTokens, cachedTokens, outputTokens, concurrency };
  const errors = targetErrors(target, inputTokens);
  return target.kind === 'provider'
    ? { ...providerEstimate(target.provider, base, request), errors }
    : { ...selfHostedEstimate(target, base, request.calibration), errors };
}

type Base = Pick<Estimate, 'target' | 'inputTokens' | 'cachedTokens' | 'outputTokens' | 'concurrency'>;

function scale(value: number, spread: { low: number; high: number }): Range {
  return { p50: value, low: value * spread.low, high: value * spread.high };
}

function addRanges(a: Range, b: Range, times = 1): Range {
  return { p50: a.p50 + b.p50 * times, low: a.low + b.low * times, high: a.high + b.high * times };
}

function selfHostedEstimate(
  t: SelfHostedTarget,
  base: Base,
  calibration?: CalibrationProfile,
): Omit<Estimate, 'errors'> {
  const { inputTokens, cachedTokens, outputTokens, concurrency } = base;
  const newTokens = inputTokens - cachedTokens;
  const notes: string[] = [];
  const memory = memoryFit(t, inputTokens + outputTokens);
  if (!memory.weightsFit)
    notes.push(
      `weights (${gb(memory.weightBytesPerGpu)} GB per GPU) do not fit in ${gb(memory.usableBytesPerGpu)} GB usable per GPU: add GPUs or use a smaller precision`,
    );
  else if (!memory.promptFits)
    notes.push(
      `this prompt needs ${gb(memory.promptKvBytes)} GB of KV cache; only ${formatCount(memory.kvCapacityTokens)} tokens fit beside the weights`,
    );
  notes.push(...assumptionNotes(t));

  const warm = prefillTime(t, newTokens, cachedTokens);
  const cold = prefillTime(t, inputTokens, 0);
  // Decode at batch C, with the context half-way through the output.
  const decode = decodeStep(t, inputTokens + outputTokens / 2, concurrency);
  const atConcurrency = (p: PrefillTime, q: number) => p.overheadMs + queuedPrefillMs(p, concurrency, q);

  let ttftMs: Range, coldTtftMs: Range, tpotMs: Range, p99: number;
  if (calibration) {
    const ttft = (n: number) =>
      calibration.ttftBaseMs + calibration.msPerInputToken * n + (calibration.msPerInputToken2 ?? 0) * n * n;
    // A measured profile has no compute/memory split: its input-dependent part is treated as compute.
    // Its base may be negative (a line through a convex curve), so a tiny prompt is held at 0.
    const queued = (n: number, q: number) =>
      Math.max(
        0,
        calibration.ttftBaseMs +
          queuedPrefillMs({ computeMs: ttft(n) - calibration.ttftBaseMs, memoryMs: 0, commMs: 0 }, concurrency, q),
      );
    ttftMs = scale(queued(newTokens, 0.5), CALIBRATED_SPREAD);
    coldTtftMs = scale(queued(inputTokens, 0.5), CALIBRATED_SPREAD);
    tpotMs = scale(calibration.tpotMs, CALIBRATED_SPREAD);
    p99 = queued(newTokens, 0.99);
    notes.push(`latency from the calibrated profile measured ${calibration.date}`);
  } else {
    ttftMs = scale(atConcurrency(warm, 0.5), t.band);
    coldTtftMs = scale(atConcurrency(cold, 0.5), t.band);
    tpotMs = scale(decode.tpotMs, DECODE_SPREAD);
    p99 = atConcurrency(warm, 0.99);
  }
  const e2eMs = addRanges(ttftMs, tpotMs, outputTokens);
  const price = t.hardware.usdPerHour;
  // A call is charged the replica time it accounts for at batch C (selfHostedCost.ts, as Compare does); with a
  // cached prefix, 1,000 calls are one cold call that fills the cache and 999 warm ones, as for providers.
  const callUsd = (p: PrefillTime, usd: number) =>
    selfHostedCallUsd(replicaTimePerCall(p, tpotMs.p50, outputTokens, concurrency).totalMs, t.gpus, usd);
  const perCallUsd = price ? callUsd(warm, price.value) : null;
  const per1kCallsUsd =
    price && perCallUsd !== null
      ? cachedTokens > 0
        ? callUsd(cold, price.value) + 999 * perCallUsd
        : 1000 * perCallUsd
      : null;
  if (!price) notes.push(`hardware '${t.hardware.id}' has no $/hour (usdPerHour): latency only, no cost`);
  return {
    ...base,
    kind: 'self-hosted',
    assumptions: {
      engine: { id: t.engine.id, name: t.engine.name, versions: t.engine.versions, choice: t.engineChoice },
      release: t.release,
      scope: t.scope,
      parallel: t.parallel,
      range: calibration ? 'calibrated profile ±10%' : t.band.derivation,
      label: assumptionLabel(t),
      rangeLabel: calibration
        ? '±10% of the calibrated profile'
        : `×${t.band.low}–×${t.band.high} of p50 (validation residuals, ${t.band.id} engines)`,
    },
    prefillFlops: prefillFlops(t.model, newTokens, cachedTokens),
    coldPrefillFlops: prefillFlops(t.model, inputTokens, 0),
    bound: calibration ? null : warm.bound,
    ttftMs,
    coldTtftMs,
    concurrencyTtftMs: { concurrency, p50: ttftMs.p50, p99 },
    tpotMs,
    e2eMs,
    costUsd: perCallUsd,
    costPer1kCallsUsd: per1kCallsUsd,
    ...(price && perCallUsd !== null && per1kCallsUsd !== null
      ? {
          selfHostedCost: {
            perCallUsd,
            per1kCallsUsd,
            usdPerGpuHour: price.value,
            basis: `${t.gpus} GPU${t.gpus === 1 ? '' : 's'} × $${price.value}/GPU-hour (${price.source}, ${price.date}) × the replica time one call takes at batch ${concurrency} (its share of the prefill wave plus output tokens × TPOT ÷ ${concurrency})`,
          },
        }
      : {}),
    prefill: warm,
    decode,
    memory,
    calibrated: calibration !== undefined,
    notes,
  };
}

/** Engine, scope and split, said where they were assumed rather than named. */
function assumptionNotes(t: SelfHostedTarget): string[] {
  const notes: string[] = [];
  const engine = `${t.engine.name} ${t.engine.versions}`;
  if (t.engineChoice === 'default') notes.push(`engine: ${engine} (the default; name one with +ENGINE or --engine)`);
  if (t.engineChoice === 'fallback') notes.push(`engine: ${t.engineNote ?? engine}`);
  if (t.release.basis) notes.push(`engine release: ${t.release.label}; ${t.release.basis}`);
  notes.push(
    t.scope === 'http'
      ? `scope http: TTFT includes ${t.engine.name}'s HTTP server (${t.engine.overheadMs.server} ms) and its own ${t.engine.overheadMs.engine} ms`
      : `scope engine: no HTTP server; TTFT includes ${t.engine.name}'s own ${t.engine.overheadMs.engine} ms`,
  );
  const { tp, pp, assumed } = t.parallel;
  if (tp * pp > 1) {
    const how =
      t.engine.split === 'layer'
        ? `${t.engine.name} splits layers over the devices`
        : `TP within a node of ${t.hardware.gpusPerNode}, PP across nodes`;
    notes.push(
      `parallelism: TP ${tp} × PP ${pp}${assumed ? ` assumed (${how}; set :tpNppM or --tp/--pp)` : ''}; one request crosses the ${pp} stage(s) in turn`,
    );
    if (tp * pp > t.hardware.gpusPerNode && t.hardware.nodeInterconnectBandwidth === undefined)
      notes.push(`link across nodes assumed: 400 Gb/s per device (the row gives no nodeInterconnectBandwidth)`);
  }
  return notes;
}

function providerEstimate(p: ProviderRow, base: Base, request: EstimateRequest): Omit<Estimate, 'errors'> {
  const { inputTokens, cachedTokens, outputTokens, concurrency } = base;
  const notes: string[] = [];
  const hit = cacheableTokens(p, cachedTokens, inputTokens);
  if (cachedTokens > 0 && hit === 0)
    notes.push(
      `cached prefix of ${cachedTokens} tokens is below ${p.id}'s ${p.caching.minTokens}-token minimum (or the provider has no prompt caching): billed and timed as cold`,
    );
  const cal = request.calibration;
  const ttft = (n: number) =>
    cal
      ? Math.max(0, cal.ttftBaseMs + cal.msPerInputToken * n + (cal.msPerInputToken2 ?? 0) * n * n)
      : p.latency.ttftBaseMs + p.latency.msPerInputToken * n;
  const spread = cal ? CALIBRATED_SPREAD : p.latency.spread;
  const ttftMs = scale(ttft(inputTokens - hit), spread);
  const coldTtftMs = scale(ttft(inputTokens), spread);
  const tpotMs = scale(cal ? cal.tpotMs : 1000 / p.latency.outputTokensPerSecond, spread);
  if (cal) notes.push(`latency from the calibrated profile measured ${cal.date}`);
  else if (p.latency.basis !== 'measured')
    notes.push(
      `latency profile is ${p.latency.basis === 'assumed' ? 'assumed' : 'partly assumed'} (${p.latency.source}, ${p.latency.date})`,
    );
  const providerCost = estimateCost(p, {
    inputTokens,
    cachedPrefixTokens: cachedTokens,
    outputTokens,
    ...(request.cacheTtl ? { ttl: request.cacheTtl } : {}),
    ...(request.at ? { at: request.at } : {}),
  });
  const perCall = hit > 0 ? providerCost.warm.totalUsd : providerCost.cold.totalUsd;
  return {
    ...base,
    kind: 'provider',
    prefillFlops: null,
    coldPrefillFlops: null,
    bound: null,
    ttftMs,
    coldTtftMs,
    // Provider fleets absorb one client's concurrency; the slow end of the spread stands in for the tail.
    concurrencyTtftMs: { concurrency, p50: ttftMs.p50, p99: ttftMs.high },
    tpotMs,
    e2eMs: addRanges(ttftMs, tpotMs, outputTokens),
    costUsd: perCall,
    costPer1kCallsUsd: providerCost.per1kCallsUsd,
    providerCost,
    calibrated: cal !== undefined,
    notes,
  };
}

function gb(bytes: number): string {
  return (bytes / 1e9).toFixed(1);
}
