import { formatCount, formatCountOf, formatMs, formatUsd } from '../format';
import type { CacheRule } from './costModel';
import { describeInstructionsBudget, type InstructionsBudget } from './instructions';
import type { PromptReport } from './report';
import { SEVERITY_RANK } from './types';

// The report as text, apart from building it (report.ts): the editor's Markdown report uses these words
// without bundling the prompt parsers.

/** The human-readable report: a per-file table, cache groups, then findings as file:line:column. */
export function formatReport(report: PromptReport): string {
  const lines: string[] = [];
  const rows = [
    ['FILE', 'TOKENS', 'TTFT', 'COST/CALL', 'RAG TOKENS'],
    ...report.files.map((f) => [
      f.file,
      formatCount(f.tokens),
      formatMs(f.ttftMs),
      formatUsd(f.costUsd),
      f.regions.length === 0 ? '-' : formatCount(f.regions.reduce((n, r) => n + r.tokens, 0)),
    ]),
  ];
  // A reduce, not Math.max(...): a spread of 100,000 rows overflows the call stack.
  const widths = (rows[0] as string[]).map((_, c) => rows.reduce((w, r) => Math.max(w, (r[c] as string).length), 0));
  for (const row of rows)
    lines.push(
      // Stryker disable next-line MethodExpression: the last column is right-aligned: nothing to trim.
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c] as number) : cell.padStart(widths[c] as number)))
        .join('  ')
        .trimEnd(),
    );
  const { target } = report;
  lines.push(
    '',
    `Target: ${target.label} (${target.serving}) · tokenizer ${target.tokenizer} · ${cacheRuleText(target.cacheRule)}`,
    `TTFT and $/call: cold (nothing cached), ${target.scenario}`,
    ...(target.tokensCorrected
      ? [
          `Token counts corrected from ${formatCount(target.tokensCorrected.requests)} requests: ${target.tokensCorrected.formula}`,
        ]
      : []),
  );

  lines.push('', report.cacheGroups.length === 0 ? 'Cache groups: none' : 'Cache groups:');
  report.cacheGroups.forEach((g, i) => {
    lines.push(
      `  ${i + 1}. ${formatCount(g.sharedTokens)} shared tokens, ${formatCount(g.cacheableTokens)} cacheable, ${g.members.length} files`,
    );
    for (const m of g.members) {
      lines.push(
        `     ${m.file}:${m.prefixEnd.startPosition.line}:${m.prefixEnd.startPosition.column}  warm ${formatMs(m.warmTtftMs)} vs cold ${formatMs(m.coldTtftMs)}, saves ${formatUsd(m.savedUsdPer1kCalls)} per 1,000 calls`,
      );
    }
  });

  lines.push('', ...formatInstructions(report.instructions));

  lines.push('', report.findings.length === 0 ? 'Findings: none' : 'Findings:');
  const ordered = [...report.findings].sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      a.file.localeCompare(b.file) ||
      a.range.start - b.range.start,
  );
  for (const f of ordered)
    lines.push(
      `  ${f.severity.padEnd(11)} ${f.file}:${f.range.startPosition.line}:${f.range.startPosition.column}  ${f.code}  ${f.message}`,
    );
  const s = report.summary;
  lines.push('', summarySentence(s), '');
  return lines.join('\n');
}

/** The always-on instructions as text lines: the total and what it adds, then each file (`report --instructions`). */
export function formatInstructions(b: InstructionsBudget): string[] {
  if (b.alwaysOn.length === 0 && b.conditional.length === 0) return ['Always-on instructions: none'];
  const lines = [
    `${describeInstructionsBudget(b)}; budget ${formatCount(b.maxTokens)}${b.tokens > b.maxTokens ? ' (over)' : ''}.`,
    '  They are sent first and unchanged on every request: the natural cacheable prefix.',
  ];
  for (const e of b.alwaysOn)
    lines.push(
      `  ${formatCount(e.tokens).padStart(8)}  ${e.file}${e.skillMetadata ? '  (skill name and description)' : ''}`,
    );
  if (b.conditional.length > 0) lines.push('  Not always on:');
  for (const e of b.conditional)
    lines.push(`  ${formatCount(e.tokens).padStart(8)}  ${e.file}  (${activationLabel(e.activation)})`);
  return lines;
}

/** When an instruction file applies, in a few words. */
export function activationLabel(a: InstructionsBudget['conditional'][number]['activation']): string {
  switch (a.kind) {
    case 'always':
      return 'every request';
    case 'globs':
      return `when files match ${a.globs.join(', ')}`;
    case 'on-request':
      return 'when the model picks it by its description';
    case 'manual':
      return 'when attached by hand';
    case 'agent':
      return 'while this agent is selected';
  }
}

/** "cache: ≥ 1,024 tokens in steps of 128" — or "no prefix caching" for a target without one. */
export function cacheRuleText(rule: CacheRule | null): string {
  return rule
    ? `cache: ≥ ${formatCountOf(rule.minTokens, 'token')} in steps of ${formatCount(rule.granularity)}`
    : 'no prefix caching';
}

/** "3 prompt files · 0 errors · 1 warning · 2 information". */
export function summarySentence(s: PromptReport['summary']): string {
  return [
    formatCountOf(s.files, 'prompt file'),
    formatCountOf(s.error, 'error'),
    formatCountOf(s.warning, 'warning'),
    `${formatCount(s.information)} information`,
  ].join(' · ');
}
