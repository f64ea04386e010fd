// What changes for one prompt when the primary target changes: its cold TTFT, cost and token count, and which
// findings still apply. Pure; the editor shows the text after "Use" (Compare) or Select Target….
import { formatCount, formatMs, formatUsd } from '../format';
import type { CacheRule } from '../estimate/cacheRule';
import type { Finding, FindingCode } from '../findings/types';
import type { TargetEstimate } from './targetEstimates';

/** One prompt's analysis on one primary target. */
export interface TargetSide {
  target: TargetEstimate;
  findings: readonly Finding[];
  /** The target's prefix-cache rule; undefined: it has no prompt caching. */
  cacheRule: CacheRule | undefined;
}

export interface TargetChange {
  kept: Finding[];
  removed: { finding: Finding; reason: string }[];
  added: Finding[];
  /** One notification line. */
  text: string;
}

/** Findings whose saving depends on the target's prefix cache (its rule, its minimum). */
const CACHE_CODES: ReadonlySet<FindingCode> = new Set([
  'prefix-cache',
  'cache-near-miss',
  'cache-breaker',
  'dynamic-hint',
]);

/** The same finding on either target: same rule, file and place (its numbers change with the target). */
const findingKey = (f: Finding) => `${f.code}\u0000${f.file}\u0000${f.range.start}`;

function removalReason(finding: Finding, after: TargetSide): string {
  const id = after.target.id;
  if (!CACHE_CODES.has(finding.code)) return `no longer over its threshold on ${id}`;
  if (!after.cacheRule) return `${id} has no prompt caching`;
  return after.target.noWarm?.includes('cache minimum')
    ? after.target.noWarm
    : `its cache saving on ${id} (cache minimum ${formatCount(after.cacheRule.minTokens)} tokens) is below the reporting threshold`;
}

/** Codes with counts: "prefix-cache ×2, rag-budget". */
function codes(findings: readonly Finding[]): string {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
  return [...counts].map(([code, n]) => (n > 1 ? `${code} ×${n}` : code)).join(', ');
}

export function describeTargetChange(before: TargetSide | undefined, after: TargetSide): TargetChange {
  const a = after.target;
  const figures: string[] = [];
  if (before) {
    const b = before.target;
    figures.push(`TTFT ${formatMs(b.cold.ttftMs.p50)} → ${formatMs(a.cold.ttftMs.p50)} cold`);
    figures.push(`${formatUsd(b.cold.costUsd)} → ${formatUsd(a.cold.costUsd)}/call`);
    if (b.inputTokens !== a.inputTokens)
      figures.push(`${formatCount(b.inputTokens)} → ${formatCount(a.inputTokens)} tokens (${a.id}'s tokenizer)`);
  } else figures.push(`TTFT ${formatMs(a.cold.ttftMs.p50)} cold`, `${formatUsd(a.cold.costUsd)}/call`);
  const now = new Map(after.findings.map((f) => [findingKey(f), f]));
  const was = new Set((before?.findings ?? []).map(findingKey));
  const kept = (before?.findings ?? []).filter((f) => now.has(findingKey(f)));
  const removed = (before?.findings ?? [])
    .filter((f) => !now.has(findingKey(f)))
    .map((finding) => ({ finding, reason: removalReason(finding, after) }));
  const added = after.findings.filter((f) => !was.has(findingKey(f)));
  const parts = [`Primary target now ${a.label} (${a.serving}): ${figures.join(', ')}.`];
  if (kept.length > 0) parts.push(`Findings kept: ${codes(kept)}.`);
  const reasons = new Map<string, Finding[]>();
  for (const r of removed) reasons.set(r.reason, [...(reasons.get(r.reason) ?? []), r.finding]);
  for (const [reason, findings] of reasons) parts.push(`Removed: ${codes(findings)}, because ${reason}.`);
  if (added.length > 0) parts.push(`New: ${codes(added)}.`);
  if (before && kept.length + removed.length + added.length === 0) parts.push('No findings before or after.');
  return { kept, removed, added, text: parts.join(' ') };
}
