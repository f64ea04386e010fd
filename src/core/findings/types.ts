import type { SourceRange } from '../prompt/types';

export type FindingSeverity = 'error' | 'warning' | 'information';

/** Stable codes: they appear in pragmas, settings, diagnostics and the report JSON. */
export const FINDING_CODES = [
  'rag-budget',
  'context-window',
  'rag-duplicate',
  'prefix-cache',
  'cache-near-miss',
  'cache-breaker',
  'dynamic-hint',
  'instructions-budget',
] as const;
export type FindingCode = (typeof FINDING_CODES)[number];

export const SEVERITY_RANK: Record<FindingSeverity, number> = { information: 0, warning: 1, error: 2 };

/** Another file a finding involves (cache group members, the other half of a near miss). */
export interface RelatedLocation {
  file: string;
  range: SourceRange;
  message: string;
  /** 1-based line and column of `range.start`, where the analysis had the file's text (the editor). */
  position?: { line: number; column: number };
}

/** One finding on one file; adapters turn `range` (offsets into the file text) into lines. */
export interface Finding {
  code: FindingCode;
  severity: FindingSeverity;
  message: string;
  file: string;
  range: SourceRange;
  relatedFiles?: RelatedLocation[];
  /** The numbers behind the message, for JSON and UI surfaces. */
  data: Record<string, number | string | string[]>;
}
