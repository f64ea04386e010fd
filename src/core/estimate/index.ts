// Public API of the estimation engine (pure TypeScript; no vscode import).
export * from './schemas';
export {
  loadTables,
  loadTablesSliced,
  parseTableText,
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
  targetTokenizerId,
  targetTokenizer,
  targetIdForModel,
  lookupModelName,
  DEFAULT_TARGET_IDS,
  TargetError,
  type TargetSpec,
  type ResolvedTarget,
} from './targets';
export {
  estimate,
  DEFAULT_OUTPUT_TOKENS,
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
  type Deployment,
  type Scenario,
} from './selfHosted';
