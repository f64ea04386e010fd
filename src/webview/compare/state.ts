import type { CompareResult, CompareRow, WorkloadProfile } from '../../core/compare/types';

/** What the Compare Targets view renders: posted whole by the extension (see protocol.ts). */
export interface CompareViewState {
  /** The prompt file's name as shown in the title. */
  promptName: string;
  profile: WorkloadProfile;
  /** What every figure of the table assumes (CompareResult.scenario). */
  scenario: string;
  /** Sorted as compareTargets sorts them: meeting the SLO first, by the profile's cost. */
  rows: CompareRow[];
  /** The cost and verdict assumptions, in words. */
  assumptions: string[];
  skipped: string[];
  /** The target the hover and status bar currently use, highlighted in the table. */
  primaryTarget?: string;
}

export function compareViewState(promptName: string, result: CompareResult, primaryTarget?: string): CompareViewState {
  return {
    promptName,
    profile: result.profile,
    scenario: result.scenario,
    rows: result.rows,
    assumptions: result.assumptions,
    skipped: result.skipped,
    ...(primaryTarget !== undefined ? { primaryTarget } : {}),
  };
}
