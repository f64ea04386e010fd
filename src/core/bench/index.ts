// The benchmark engine's public surface, for the CLI and the extension.
export { benchMessages, type BenchMessages } from './benchPrompt';
export { measureRequest, type MeasureOptions, type StreamRequest } from './client';
export {
  ENDPOINT_KINDS,
  endpointConfigSchema,
  loadEndpointsFile,
  parseEndpoint,
  type EndpointConfig,
  type EndpointKind,
} from './endpoints';
export { benchResultCsv } from './export';
export { messageTokenCounter, predictEndpoint, type Prediction } from './prediction';
export { redact } from './errors';
export { endpointRequestCounter, usageCheck, type RequestCounter } from './usageCheck';
export { formatUsageCheck, usageBasis } from './usageFormat';
export type * from './result';
export {
  buildStreamRequest,
  bundledStreamWorkers,
  DEFAULT_CONCURRENCY,
  runBenchmark,
  type BenchOptions,
  type BenchProgress,
} from './runner';
export {
  DEFAULT_SLO,
  DEFAULT_SLO_MIN_SHARE,
  distribution,
  percentile,
  shareText,
  sloVerdict,
  speedupText,
  summarizeLevel,
  type SloVerdict,
} from './stats';
export type { FetchLike, Transport } from './transport';
