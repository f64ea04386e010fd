import type { Efficiency, EngineRow, HardwareRow, ModelRow, Precision, Scope } from './schemas';
import type { Parallelism } from './targets';

/** A model on devices, run by an engine: everything the roofline needs. */
export interface Deployment {
  model: ModelRow;
  hardware: HardwareRow;
  engine: EngineRow;
  efficiency: Efficiency;
  gpus: number;
  parallel: Parallelism;
  precision: Precision;
  scope: Scope;
  /** The engine release range, when not the current one: its measured factor on the linear layers' prefill rate. */
  release?: { prefillFactor: number };
}

/** Weight storage per parameter; int4/fp4 include group scales (~4.5 and 4.25 bits). */
const BYTES_PER_PARAM: Record<Precision, number> = {
  bf16: 2,
  fp16: 2,
  fp8: 1,
  int8: 1,
  int4: 0.5625,
  fp4: 0.53125,
};
const MS = 1000;
/** vLLM's default gpu_memory_utilization: the rest is left for the CUDA context and activations. */
export const USABLE_MEMORY_FRACTION = 0.9;
/** A transfer across nodes costs this many times the engine's in-node collective latency. */
export const NETWORK_LATENCY_FACTOR = 2.5;
/** Per device across nodes when the row gives none: one 400 Gb/s InfiniBand/RoCE NIC per GPU (DGX/HGX layout). */
export const DEFAULT_NODE_BANDWIDTH = 50e9;

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
 * Peak dense FLOP/s per device for the weights' precision. The 16-bit rate is the FP16-accumulate one on
 * engines whose GEMMs accumulate in FP16 (llama.cpp's cuBLAS path; 2× on GeForce), else the bf16
 * (FP32-accumulate) rate. Without native units for the precision (int4 anywhere, fp8 before Hopper/Ada)
 * weights are dequantised to 16 bits, so that rate times the engine's weightOnlyQuant applies.
 */
export function computeRate(d: Pick<Deployment, 'hardware' | 'engine' | 'efficiency' | 'precision'>): {
  flops: number;
  native: boolean;
} {
  const f = d.hardware.flops;
  const sixteenBit = d.engine.fp16Accumulate ? (f.fp16 ?? f.bf16) : f.bf16;
  const native: Record<Precision, number | undefined> = {
    bf16: f.bf16,
    fp16: sixteenBit,
    fp8: f.fp8,
    int8: f.int8,
    int4: undefined,
    fp4: f.fp4,
  };
  const rate = native[d.precision];
  if (rate !== undefined) return { flops: rate, native: true };
  return { flops: sixteenBit * d.efficiency.weightOnlyQuant, native: false };
}

export function weightBytes(d: Pick<Deployment, 'model' | 'precision'>, params = d.model.totalParamsB): number {
  return params * 1e9 * bytesPerParam(d.precision);
}

/**
 * The link between `devices` devices: NVLink/PCIe within a node, the network beyond it. Each collective also
 * costs the engine's fixed latency (kernel launch and synchronisation), larger across nodes.
 */
function link(d: Deployment, devices: number): { bandwidth: number; latencyS: number } {
  const h = d.hardware;
  const latencyS = d.engine.collectiveUs * 1e-6;
  return devices <= h.gpusPerNode
    ? { bandwidth: h.interconnectBandwidth ?? DEFAULT_NODE_BANDWIDTH, latencyS }
    : { bandwidth: h.nodeInterconnectBandwidth ?? DEFAULT_NODE_BANDWIDTH, latencyS: latencyS * NETWORK_LATENCY_FACTOR };
}

/** Tensor parallelism all-reduces the activations twice per layer (after attention and after the MLP), as a ring. */
export function tensorParallelMs(d: Deployment, tokens: number): number {
  const { tp } = d.parallel;
  if (tp <= 1) return 0;
  const { bandwidth, latencyS } = link(d, tp);
  const bytes = tokens * d.model.architecture.hiddenSize * 2;
  const allReduceS = ((2 * (tp - 1)) / tp) * (bytes / bandwidth) + latencyS;
  return 2 * d.model.architecture.layers * allReduceS * MS;
}

/** Pipeline stages hand the activations on, once per stage boundary. */
export function pipelineMs(d: Deployment, tokens: number): number {
  const { tp, pp } = d.parallel;
  if (pp <= 1) return 0;
  const { bandwidth, latencyS } = link(d, tp * pp);
  const bytes = tokens * d.model.architecture.hiddenSize * 2;
  return (pp - 1) * (bytes / bandwidth + latencyS) * MS;
}

/** Per-request time outside the kernels: the engine's own, plus its HTTP server's when the scope is http. */
export function overheadMs(d: Pick<Deployment, 'engine' | 'scope'>): number {
  return d.engine.overheadMs.engine + (d.scope === 'http' ? d.engine.overheadMs.server : 0);
}

export interface PrefillTime {
  computeMs: number;
  memoryMs: number;
  commMs: number;
  overheadMs: number;
  /** Pipeline stages: a single request crosses them in turn, concurrent requests overlap across them. */
  stages: number;
  totalMs: number;
  bound: 'compute' | 'memory';
}

/**
 * Prefill = max(compute, weight + cached-KV read) + communication + overhead. One request crosses the
 * pipeline stages in turn, so only the TP devices of a stage work on it at a time: PP adds memory, not
 * speed, unless the engine cuts the prompt into chunks that follow each other through the stages
 * (llama.cpp's micro-batches): m chunks over P stages take (m + P − 1) chunk-stage steps instead of m·P.
 */
export function prefillTime(d: Deployment, newTokens: number, cachedTokens: number): PrefillTime {
  const e = d.efficiency;
  const { tp, pp } = d.parallel;
  const flops = prefillFlops(d.model, newTokens, cachedTokens);
  const linearRate = computeRate(d).flops * tp * e.prefill * (d.release?.prefillFactor ?? 1);
  const attentionRate = d.hardware.flops.bf16 * tp * e.attention;
  const chunks = pp > 1 && d.engine.pipelineChunkTokens ? Math.ceil(newTokens / d.engine.pipelineChunkTokens) : 1;
  const steps = (chunks + pp - 1) / pp;
  const computeMs = ((flops.linear / linearRate + flops.attention / attentionRate) * MS * steps) / chunks;
  // Large prefills touch every expert, so an MoE reads all its weights; each chunk reads them again.
  const bytes = weightBytes(d) + cachedTokens * kvBytesPerToken(d.model, d.precision);
  const memoryMs = (bytes / (d.hardware.memoryBandwidth * tp * e.decode)) * MS * steps;
  const commMs = tensorParallelMs(d, newTokens) + pipelineMs(d, newTokens);
  const overhead = overheadMs(d);
  return {
    computeMs,
    memoryMs,
    commMs,
    overheadMs: overhead,
    stages: d.parallel.pp,
    totalMs: Math.max(computeMs, memoryMs) + commMs + overhead,
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
export function decodeStep(d: Deployment, contextTokens: number, batch: number): DecodeTime {
  const e = d.efficiency;
  const { tp } = d.parallel;
  const params = decodeParams(d.model, batch);
  const bytes = weightBytes(d, params) + batch * contextTokens * kvBytesPerToken(d.model, d.precision);
  const memoryMs = (bytes / (d.hardware.memoryBandwidth * tp * e.decode)) * MS;
  const decodeFlops = 2 * params * 1e9 * batch + prefillFlops(d.model, 1, contextTokens).attention * batch;
  const computeMs = (decodeFlops / (computeRate(d).flops * tp * e.prefill)) * MS;
  const commMs = tensorParallelMs(d, batch) + pipelineMs(d, batch);
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

/** Weights and KV cache are split over every device, whether by tensor or pipeline parallelism. */
export function memoryFit(
  d: Pick<Deployment, 'model' | 'hardware' | 'gpus' | 'precision'>,
  contextTokens: number,
): MemoryFit {
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
