// Public API of the estimation engine (pure TypeScript; no vscode import).
export * from './schemas';
export {
  loadTables,
  loadTablesSliced,
  parseTableText,
  describeProblem,
  BUILTIN_SOURCES,
  type Tables,
  type TableProblem,
  type TableSource,
} from './tables';
export {
  parseTargetId,
  parseGpuCount,
  parsePrecision,
  resolveTarget,
  formatTargetId,
  closestIds,
  targetLabel,
  assumptionLabel,
  namesTarget,
  engineEfficiency,
  parallelism,
  DEFAULT_ENGINE,
  DEFAULT_SCOPE,
  targetTokenizerId,
  targetTokenizer,
  targetModelId,
  targetCountKey,
  targetIdForModel,
  lookupModelName,
  DEFAULT_TARGET_IDS,
  TargetError,
  type TargetSpec,
  type ResolvedTarget,
  type SelfHostedTarget,
  type TargetAssumptions,
  type Parallelism,
} from './targets';
export {
  estimate,
  DEFAULT_OUTPUT_TOKENS,
  DECODE_SPREAD,
  type Assumptions,
  type Estimate,
  type EstimateRequest,
  type Range,
  type SelfHostedCost,
} from './estimate';
export {
  estimateCost,
  callCost,
  cacheableTokens,
  isPeak,
  ttlBasis,
  timeOfDayBasis,
  type CallCost,
  type CostEstimate,
  type CacheTtl,
} from './cost';
export { targetErrors, retiredMessage, contextWindowOf } from './problems';
export {
  kvBytesPerToken,
  prefillFlops,
  prefillTime,
  decodeStep,
  memoryFit,
  computeRate,
  overheadMs,
  tensorParallelMs,
  pipelineMs,
  type Deployment,
  type PrefillTime,
} from './selfHosted';
export { sizeCpu, type CpuSize } from './cpu';
export { CURRENT_RELEASE, checkEngineVersion, engineRelease, type EngineRelease } from './engineVersion';
