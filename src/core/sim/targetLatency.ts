import { decodeStep, estimate, type ResolvedTarget } from '../estimate';
import type { SimLatencyModel } from './latencyModel';

/**
 * The simulator's latency from the estimation engine, so `serve-sim --target` behaves like the
 * prediction the editor shows: prefill from the estimate's p50 (the simulator queues prefills
 * itself), decode from the bandwidth-bound step at the live batch size for self-hosted targets and
 * from the provider's output speed for APIs.
 */
export function targetLatencyModel(target: ResolvedTarget): SimLatencyModel {
  return {
    prefillMs: (newTokens, cachedTokens) =>
      estimate(target, { inputTokens: newTokens + cachedTokens, cachedTokens, outputTokens: 1 }).ttftMs.p50,
    tpotMs: (contextTokens, batch) =>
      target.kind === 'self-hosted'
        ? decodeStep(target, Math.max(1, contextTokens), Math.max(1, batch)).tpotMs
        : 1000 / target.provider.latency.outputTokensPerSecond,
  };
}
