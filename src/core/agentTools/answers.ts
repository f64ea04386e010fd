// What an agent gets back from a tool: concise text for the model plus the structured figures. Built
// from the results the hover, Compare view and report use (TargetEstimate, CompareResult,
// PromptReport), formatted with the one formatter, so an agent and a person read the same numbers.
import type { Cacheable } from '../analysis/engine';
import type { TargetEstimate } from '../analysis/targetEstimates';
import { columnsFor } from '../compare/columns';
import { describeProfile } from '../compare/profiles';
import type { CompareResult, WorkloadProfile } from '../compare/types';
import type { PromptCount } from '../count';
import type { Range } from '../estimate';
import { formatCount, formatMs, formatRange, formatTokens, formatUsd } from '../format';
import type { PromptReport } from '../findings/report';
import { SEVERITY_RANK, type Finding } from '../findings/types';

export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

/** One prompt's analysis: the fields of the editor's DocumentAnalysis that the hover renders. */
export interface PromptAnalysis {
  count: PromptCount;
  /** Primary first. */
  targets: TargetEstimate[];
  findings: Finding[];
  cacheable?: Cacheable;
  profile: WorkloadProfile;
  frontMatterTarget?: string;
}

export interface TargetFigures {
  id: string;
  label: string;
  inputTokens: number;
  tokensExact: boolean;
  cachedTokens: number;
  ttftMs: { cold: Range; warm: Range | null };
  /** At the scenario's concurrency: p50 and p99, cold and (when a prefix is cacheable) warm. */
  ttftAtConcurrencyMs: { cold: { p50: number; p99: number }; warm: { p50: number; p99: number } | null };
  tpotMs: Range;
  /** Cold, and warm when a prefix is cacheable. */
  e2eMs: { cold: Range; warm: Range | null };
  /** null where the target has no price (a self-hosted row without $/GPU-hour). */
  costPerCallUsd: { cold: number | null; warm: number | null };
  /** One cold call that fills the cache, then 999 warm ones (1,000 cold without a warm figure): the hover's. */
  costPer1kCallsUsd: number | null;
  phase: string;
  advice: string | null;
  errors: string[];
  pricing: string[];
  notes: string[];
}

export function targetFigures(t: TargetEstimate): TargetFigures {
  const atC = (f: typeof t.cold) => ({ p50: f.ttftMs.p50, p99: f.ttftP99Ms });
  return {
    id: t.id,
    label: t.label,
    inputTokens: t.inputTokens,
    tokensExact: t.exact,
    cachedTokens: t.warm?.scenario.cachedTokens ?? 0,
    ttftMs: { cold: t.cold.ttftMs, warm: t.warm?.ttftMs ?? null },
    ttftAtConcurrencyMs: { cold: atC(t.cold), warm: t.warm ? atC(t.warm) : null },
    tpotMs: t.cold.tpotMs,
    e2eMs: { cold: t.cold.e2eMs, warm: t.warm?.e2eMs ?? null },
    costPerCallUsd: { cold: t.cold.costUsd, warm: t.warm?.costUsd ?? null },
    costPer1kCallsUsd: (t.warm ?? t.cold).costPer1kCallsUsd,
    phase: t.phase,
    advice: t.advice ?? null,
    errors: t.errors,
    pricing: t.pricing,
    notes: t.cold.estimate.notes,
  };
}

function findingLine(f: { severity: string; code: string; message: string; file: string }, line?: number): string {
  return `- ${f.severity} ${f.code} (${f.file}${line !== undefined ? `:${line}` : ''}): ${f.message}`;
}

const worstFirst = <T extends Pick<Finding, 'severity'>>(findings: readonly T[]): T[] =>
  [...findings].sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity]);

/** promptLens_analyzePrompt / MCP analyzePrompt. `notes`: what the adapter ignored (untrusted tables…). */
export function analysisAnswer(file: string, a: PromptAnalysis, notes: readonly string[] = []): ToolAnswer {
  const figures = a.targets.map(targetFigures);
  const exact = a.count.exact;
  const lines = [
    `${file}: ${formatTokens(a.count.inputTokens, exact)} input tokens (${a.count.tokenizer}${exact ? '' : ', approximate'}; ` +
      `${a.count.messages.map((m) => `${m.role} ${formatTokens(m.tokens, exact)}`).join(', ') || 'no messages'})`,
    `Scenario: ${describeProfile(a.profile)}` +
      (a.cacheable && a.targets.some((t) => t.warm)
        ? `; warm = the ${formatCount(a.cacheable.tokens)}-token ${a.cacheable.source} prefix served from the cache`
        : '; nothing cacheable: warm = cold'),
  ];
  for (const [i, t] of a.targets.entries()) {
    const f = figures[i]!;
    lines.push(
      // The hover's cells, in its words: cold TTFT with its range, warm p50, TPOT, cold E2E and $/call, $/1k calls.
      `${t.label}${i === 0 ? ' (primary)' : ''}: TTFT cold ${formatRange(f.ttftMs.cold)}` +
        `${f.ttftMs.warm ? `, warm ${formatMs(f.ttftMs.warm.p50)}` : ''}; ` +
        `at concurrency ${a.profile.concurrency} p99 ${formatMs(f.ttftAtConcurrencyMs.cold.p99)} cold` +
        `${f.ttftAtConcurrencyMs.warm ? ` / ${formatMs(f.ttftAtConcurrencyMs.warm.p99)} warm` : ''}; ` +
        `TPOT ${formatMs(f.tpotMs.p50)}; E2E cold ${formatMs(f.e2eMs.cold.p50)}; ` +
        `${formatUsd(f.costPerCallUsd.cold)}/call cold, ${formatUsd(f.costPer1kCallsUsd)} per 1k calls; ${t.phase}`,
      ...(t.advice ? [`  ! ${t.advice}`] : []),
      ...t.errors.map((e) => `  error: ${e}`),
    );
  }
  const findings = worstFirst(a.findings);
  lines.push(findings.length === 0 ? 'Findings: none' : `Findings (${findings.length}, worst first):`);
  lines.push(...findings.map((f) => findingLine(f)));
  lines.push(...notes.map((n) => `Note: ${n}`));
  return {
    text: lines.join('\n'),
    data: {
      file,
      tokenizer: a.count.tokenizer,
      tokensExact: exact,
      inputTokens: a.count.inputTokens,
      messages: a.count.messages,
      unfilledVariables: a.count.variables,
      profile: a.profile,
      cacheable: a.cacheable ?? null,
      frontMatterTarget: a.frontMatterTarget ?? null,
      targets: figures,
      findings: findings.map((f) => ({ code: f.code, severity: f.severity, message: f.message, data: f.data })),
      notes: [...notes],
    },
  };
}

/** promptLens_compareTargets / MCP compareTargets: the Compare view's ranking, best first. */
export function compareAnswer(
  file: string,
  result: CompareResult,
  limit: number,
  notes: readonly string[] = [],
): ToolAnswer {
  const rows = result.rows.slice(0, limit);
  const columns = columnsFor(rows).filter((c) => c.key !== 'kind');
  const meeting = result.rows.filter((r) => r.meetsSlo).length;
  const lines = [
    `${file}: ${meeting} of ${result.rows.length} targets meet the ${result.profile.name} SLO (${describeProfile(result.profile)}); best first:`,
    ...rows.map((r, i) => `${i + 1}. ${columns.map((c) => `${c.title} ${c.format(r)}`).join('; ')}`),
    ...(result.rows.length > rows.length ? [`(${result.rows.length - rows.length} more not shown)`] : []),
    'Assumptions:',
    ...result.assumptions.map((a) => `- ${a}`),
    ...(result.skipped.length > 0 ? ['Left out:', ...result.skipped.map((s) => `- ${s}`)] : []),
    ...notes.map((n) => `Note: ${n}`),
  ];
  return { text: lines.join('\n'), data: { file, ...result, rows, totalRows: result.rows.length, notes: [...notes] } };
}

/** promptLens_workspaceReport / MCP workspaceReport: the report summarised, worst findings first. */
export function reportAnswer(report: PromptReport, limit: number, notes: readonly string[] = []): ToolAnswer {
  const findings = worstFirst(report.findings).slice(0, limit);
  const { summary } = report;
  const heaviest = [...report.files].sort((a, b) => b.tokens - a.tokens).slice(0, 5);
  const lines = [
    `${summary.files} prompt files on ${report.target.label}: ${summary.error} errors, ${summary.warning} warnings, ${summary.information} information`,
    ...(heaviest.length > 0
      ? [
          'Largest prompts:',
          ...heaviest.map(
            (f) =>
              `- ${f.file}: ${formatCount(f.tokens)} tokens, TTFT ${formatMs(f.ttftMs)}, ${formatUsd(f.costUsd)}/call`,
          ),
        ]
      : []),
    ...(report.cacheGroups.length > 0
      ? [
          `Shared prefixes: ${report.cacheGroups.length} groups (${report.cacheGroups.map((g) => `${g.members.length} files × ${formatCount(g.sharedTokens)} tokens`).join('; ')})`,
        ]
      : []),
    findings.length === 0
      ? 'Findings: none'
      : `Findings (${findings.length} of ${report.findings.length}, worst first):`,
    ...findings.map((f) => findingLine(f, f.range.startPosition.line)),
    ...notes.map((n) => `Note: ${n}`),
  ];
  return {
    text: lines.join('\n'),
    data: {
      target: report.target,
      summary,
      files: report.files.map(({ regions: _regions, ...f }) => f),
      cacheGroups: report.cacheGroups.map((g) => ({
        sharedTokens: g.sharedTokens,
        cacheableTokens: g.cacheableTokens,
        files: g.members.map((m) => m.file),
      })),
      findings: findings.map((f) => ({
        code: f.code,
        severity: f.severity,
        message: f.message,
        file: f.file,
        line: f.range.startPosition.line,
        data: f.data,
      })),
      totalFindings: report.findings.length,
      notes: [...notes],
    },
  };
}
