import { AnalysisEngine } from '../../../src/core/analysis/engine';
import { estimateTarget } from '../../../src/core/analysis/targetEstimates';
import { resolveProfile } from '../../../src/core/compare';
import { targetCountKey, type ResolvedTarget, type Tables } from '../../../src/core/estimate';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';

/**
 * What the editor computes for one prompt on one target with default settings (the interactive profile): the
 * analysis engine's count and cacheable prefix, and the estimate the status bar, hover and CodeLens show (the
 * analyzer's estimateTarget call). The engine is returned for the report and Compare.
 */
export async function editorAnalysis(file: string, text: string, target: ResolvedTarget, tables: Tables) {
  const profile = resolveProfile();
  const engine = new AnalysisEngine();
  engine.configure({
    tables,
    targets: [target],
    findings: DEFAULT_FINDING_SETTINGS,
    variablePatterns: [],
    disabledFormats: [],
    workload: { concurrency: profile.concurrency, outputTokens: profile.outputTokens },
  });
  const counted = (await engine.count({ key: file, file, fileName: file, text, version: 1, edits: [] }))!;
  const count = counted.counts[targetCountKey(target)]!;
  const { cacheable } = (await engine.findings(file, 1))!;
  const estimate = estimateTarget({ target, count, prefixTokens: cacheable?.tokens ?? 0, slo: profile });
  return { engine, profile, count, cacheable, estimate };
}
