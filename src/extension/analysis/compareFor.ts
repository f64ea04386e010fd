import type * as vscode from 'vscode';
import { compareTargets, promptTokenCounter, selfHostedModel, type CompareResult } from '../../core/compare';
import type { Tables } from '../../core/estimate';
import type { Calibrations } from '../bench/calibrations';
import type { DocumentAnalysis } from './analyzer';

/**
 * Compare Targets for one document: API models plus self-hosted deployments of the prompt's model
 * (its front matter's open-weight model, else the model of the first self-hosted target in use).
 */
export function compareFor(document: vscode.TextDocument, analysis: DocumentAnalysis, tables: Tables, calibrations: Calibrations): CompareResult {
  const candidates = [analysis.parsed.settings.model, ...analysis.targets.filter((t) => t.kind === 'self-hosted').map((t) => t.id.split('@')[0])];
  const model = candidates.map((m) => (m ? selfHostedModel(tables, { promptModel: m }) : undefined)).find((m) => m !== undefined);
  return compareTargets({
    tables,
    profile: analysis.profile,
    countTokens: promptTokenCounter(document.fileName, document.getText()),
    ...(analysis.cacheable ? { cachedTokens: analysis.cacheable.tokens } : {}),
    ...(model ? { model } : {}),
    calibrationFor: (id) => calibrations.profile(id),
  });
}
