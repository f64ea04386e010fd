// What a count corrected by an endpoint's bills carries (tokenCorrection.ts); no imports, so the webviews can use it.

/** What a corrected count carries: the fit, the requests it came from and the uncorrected local count. */
export interface AppliedCorrection {
  /** The endpoint whose bills it was fitted on (its name). */
  endpoint: string;
  requests: number;
  sizes: number;
  fit: 'line' | 'ratio';
  ratio: number;
  offset: number;
  /** The local count before the correction. */
  localTokens: number;
}
