// Public API of target comparison (pure TypeScript; no vscode import).
export {
  PROFILES,
  PROFILE_NAMES,
  sloSchema,
  parseSloSettings,
  resolveProfile,
  describeProfile,
  type WorkloadProfile,
  type ProfileName,
  type SloSettings,
} from './profiles';
export { GPU_COUNTS, fewestGpus, selfHostedModel, selfHostedCandidates, providerCandidates } from './candidates';
export {
  replicaTimePerCall,
  selfHostedCallUsd,
  replicaTokensPerSecond,
  type PrefillWork,
  type ReplicaTime,
} from '../estimate/selfHostedCost';
export { evaluateTarget, failingMetrics, type CompareRow, type SloMetric } from './rows';
export { NOTE } from './notes';
export { sortRows, cheapestMeeting, rankCost, type RankBy } from './rank';
export { compareTargets, cheapestMeetingLine, type CompareRequest, type CompareResult } from './compare';
export { COLUMNS, columnsFor, type Column, type ColumnKey } from './columns';
export { promptSloSettings, type FrontMatterProfile } from './frontMatter';
