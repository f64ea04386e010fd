import type { Band, EfficiencyClass, HardwareRow, ModelRow, Precision } from './schemas';

/** Which end of the efficiency band: `low` is the slow scenario, `high` the fast one. */
export type Scenario = keyof Band;
export const SCENARIOS: readonly Scenario[] = ['low', 'typical', 'high'];

export interface Deployment {
  model: ModelRow;
  hardware: HardwareRow;
  efficiency: EfficiencyClass;
  gpus: number;
  precision: Precision;
}

/** Weight storage per parameter; int4/fp4 include group scales (~4.5 and 4.25 bits). */
const BYTES_PER_PARAM: Record<Precision, number> = { bf16: 2, fp8: 1, int8: 1, int4: 0.5625, fp4: 0.53125 };
const MS = 1000;
/** vLLM's default gpu_memory_utilization: the rest is left for the CUDA context and activations. */
export const USABLE_MEMORY_FRACTION = 0.9;

export function bytesPerParam(precision: Precision): number {
  return BYTES_PER_PARAM[precision];
}

/** KV cache is kept in fp8 when the weights are fp8/fp4 (as engines do for such checkpoints), else in 16 bits. */
export function kvBytesPerElement(precision: Precision): number {
  return precision === 'fp8' || precision === 'fp4' ? 1 : 2;
}

/** GQA stores K and V for each KV head; MLA stores one compressed latent plus a RoPE key per layer. */
export function kvBytesPerToken(model: ModelRow, precision: Precision): number {
  const a = model.architecture;
  const elements = a.mla ? a.layers * (a.mla.kvLoraRank + a.mla.ropeHeadDim) : 2 * a.layers * a.kvHeads * a.headDim;
  return elements * kvBytesPerElement(precision);
}

export interface PrefillFlops {
  linear: number;
  attention: number;
  total: number;
}

/**
 * n new tokens after c cached ones: linear layers 2·P_active·n; causal attention (QKᵀ and PV) 4·L·H·d·n·(c + n/2).
 * MLA attends with 192-dim queries/keys and 128-dim values, so d is their mean; GQA does not change FLOPs.
 */
export function prefillFlops(model: ModelRow, newTokens: number, cachedTokens: number): PrefillFlops {
  const a = model.architecture;
  const linear = 2 * model.activeParamsB * 1e9 * newTokens;
  const d = a.mla ? (a.mla.qkHeadDim + a.mla.vHeadDim) / 2 : a.headDim;
  const attention = 4 * a.layers * a.heads * d * newTokens * (cachedTokens + newTokens / 2);
  return { linear, attention, total: linear + attention };
}

/**
 * Peak dense FLOP/s per GPU for the precision; without native support weights are dequantised and the bf16 rate
 * applies.
 */
export function computeRate(d: Deployment, scenario: Scenario): { flops: number; native: boolean } {
  const f = d.hardware.flops;
  const native =
    d.precision === 'bf16'
      ? f.bf16
      : d.precision === 'fp8'
        ? f.fp8
        : d.precision === 'int8'
          ? f.int8
          : d.precision === 'fp4'
            ? f.fp4
            : undefined;
  if (native !== undefined) return { flops: native, native: true };
  return { flops: f.bf16 * d.efficiency.weightOnlyQuantPrefill[scenario], native: false };
}

export function weightBytes(d: Deployment, params = d.model.totalParamsB): number {
  return params * 1e9 * bytesPerParam(d.precision);
}

/** Ring all-reduce of `bytes` per GPU: 2(N−1)/N of the data crosses each link, plus a fixed latency. */
function allReduceMs(d: Deployment, bytes: number): number {
  if (d.gpus <= 1) return 0;
  const transfer = ((2 * (d.gpus - 1)) / d.gpus) * (bytes / d.hardware.interconnectBandwidth);
  return (transfer + d.efficiency.commLatencyUs * 1e-6) * MS;
}

/** Tensor parallelism all-reduces the activations twice per layer (after attention and after the MLP). */
export function tensorParallelMs(d: Deployment, tokens: number): number {
  return 2 * d.model.architecture.layers * allReduceMs(d, tokens * d.model.architecture.hiddenSize * 2);
}

export interface PrefillTime {
  computeMs: number;
  memoryMs: number;
  commMs: number;
  overheadMs: number;
  totalMs: number;
  bound: 'compute' | 'memory';
}

/** Prefill = max(compute, weight + cached-KV read) + tensor-parallel communication + fixed overhead. */
export function prefillTime(d: Deployment, newTokens: number, cachedTokens: number, scenario: Scenario): PrefillTime {
  const e = d.efficiency;
  const flops = prefillFlops(d.model, newTokens, cachedTokens);
  const linearRate = computeRate(d, scenario).flops * d.gpus * e.prefillCompute[scenario];
  const attentionRate = d.hardware.flops.bf16 * d.gpus * e.attentionCompute[scenario];
  const computeMs = (flops.linear / linearRate + flops.attention / attentionRate) * MS;
  // Large prefills touch every expert, so an MoE reads all its weights.
  const bytes = weightBytes(d) + cachedTokens * kvBytesPerToken(d.model, d.precision);
  const memoryMs = (bytes / (d.hardware.memoryBandwidth * d.gpus * e.memoryBandwidth[scenario])) * MS;
  const commMs = tensorParallelMs(d, newTokens);
  const overheadMs = e.overheadMs[scenario];
  return {
    computeMs,
    memoryMs,
    commMs,
    overheadMs,
    totalMs: Math.max(computeMs, memoryMs) + commMs + overheadMs,
    bound: computeMs >= memoryMs ? 'compute' : 'memory',
  };
}

/**
 * Parameters read by one decode step of `batch` sequences: dense models read everything; an MoE reads the
 * experts its tokens pick — active params at batch 1, rising to all params as the chance an expert is untouched falls.
 */
export function decodeParams(model: ModelRow, batch: number): number {
  const moe = model.architecture.moe;
  if (!moe || batch <= 1) return model.activeParamsB;
  const share = moe.activeExperts / moe.experts;
  const touched = 1 - (1 - share) ** batch;
  return model.activeParamsB + (model.totalParamsB - model.activeParamsB) * ((touched - share) / (1 - share));
}

export interface DecodeTime {
  memoryMs: number;
  computeMs: number;
  commMs: number;
  tpotMs: number;
  bound: 'compute' | 'memory';
}

/** One decode step for `batch` sequences of `contextTokens` each: bandwidth-bound (weights + KV), compute-checked. */
export function decodeStep(d: Deployment, contextTokens: number, batch: number, scenario: Scenario): DecodeTime {
  const e = d.efficiency;
  const params = decodeParams(d.model, batch);
  const bytes = weightBytes(d, params) + batch * contextTokens * kvBytesPerToken(d.model, d.precision);
  const memoryMs = (bytes / (d.hardware.memoryBandwidth * d.gpus * e.memoryBandwidth[scenario])) * MS;
  const decodeFlops = 2 * params * 1e9 * batch + prefillFlops(d.model, 1, contextTokens).attention * batch;
  const computeMs = (decodeFlops / (computeRate(d, scenario).flops * d.gpus * e.prefillCompute[scenario])) * MS;
  const commMs = tensorParallelMs(d, batch);
  return {
    memoryMs,
    computeMs,
    commMs,
    tpotMs: Math.max(memoryMs, computeMs) + commMs,
    bound: computeMs > memoryMs ? 'compute' : 'memory',
  };
}

export interface MemoryFit {
  kvBytesPerToken: number;
  promptKvBytes: number;
  weightBytesPerGpu: number;
  usableBytesPerGpu: number;
  /** Tokens of KV cache that fit beside the weights across all GPUs (0 when the weights alone do not fit). */
  kvCapacityTokens: number;
  weightsFit: boolean;
  promptFits: boolean;
}

/** Weights are split across GPUs by tensor parallelism, and so is the KV cache. */
export function memoryFit(d: Deployment, contextTokens: number): MemoryFit {
  const perToken = kvBytesPerToken(d.model, d.precision);
  const weightBytesPerGpu = weightBytes(d) / d.gpus;
  const usableBytesPerGpu = d.hardware.memoryBytes * USABLE_MEMORY_FRACTION;
  const room = Math.max(0, usableBytesPerGpu - weightBytesPerGpu) * d.gpus;
  const kvCapacityTokens = Math.floor(room / perToken);
  return {
    kvBytesPerToken: perToken,
    promptKvBytes: perToken * contextTokens,
    weightBytesPerGpu,
    usableBytesPerGpu,
    kvCapacityTokens,
    weightsFit: weightBytesPerGpu < usableBytesPerGpu,
    promptFits: contextTokens <= kvCapacityTokens,
  };
}
