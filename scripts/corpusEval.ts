// Scores the findings of `prompt-lens report` against labelled corpora: the one written in this
// repository (test/corpus) and a manifest of public files (test/corpus/public.json). Pure: the
// caller reads the files; `npm run corpus` (scripts/corpus.ts) and a unit test both use it.
import { z } from 'zod';
import { DEFAULT_TARGET_IDS, loadTables, parseTargetId, resolveTarget } from '../src/core/estimate';
import { buildReport, type PromptReport, type ReportFileInput } from '../src/core/findings/report';
import { DEFAULT_FINDING_SETTINGS } from '../src/core/findings/settings';
import { PROFILES } from '../src/core/compare/profiles';
import { findingTarget } from '../src/core/findings/targets';
import { FINDING_CODES, type FindingCode, type FindingSeverity } from '../src/core/findings/types';
import { SWITCHABLE_FORMATS } from '../src/core/prompt/formats';
import { getTokenizer } from '../src/core/tokenize/registry';

const Label = z.object({
  file: z.string(),
  code: z.enum(FINDING_CODES),
  line: z.number().int().positive(),
  /** `expected`: the finding is right and must be reported; `wrong`: a known false positive. */
  verdict: z.enum(['expected', 'wrong']).default('expected'),
  note: z.string().optional(),
});
export type Label = z.infer<typeof Label>;

/** test/corpus/labels.json: every finding the in-repo corpus should give, at its line. */
export const LabelledCorpus = z.object({
  $comment: z.string().optional(),
  include: z.array(z.string()).default([]),
  labels: z.array(Label),
});

const Run = z.object({
  description: z.string(),
  /** Whether this run counts towards the precision goals (the product as shipped reads files this way). */
  precisionGoal: z.boolean().default(true),
  include: z.array(z.string()).default([]),
  disabledFormats: z.array(z.enum(SWITCHABLE_FORMATS)).default([]),
});

/** test/corpus/public.json: public files (by repository, commit and globs) and the verdicts on their findings. */
export const PublicManifest = z.object({
  $comment: z.string().optional(),
  repo: z.string(),
  url: z.string(),
  commit: z.string().regex(/^[0-9a-f]{40}$/),
  files: z.array(z.string()).min(1),
  runs: z.record(z.string(), Run),
  labels: z.array(Label.extend({ run: z.string() })),
});
export type PublicManifest = z.infer<typeof PublicManifest>;

export interface CodeScore {
  code: FindingCode;
  severity: FindingSeverity;
  reported: number;
  correct: number;
  expected: number;
  found: number;
}

export interface Score {
  files: number;
  byCode: CodeScore[];
  /** Reported findings no label names: counted as wrong until someone labels them. */
  unlabelled: Array<{ file: string; code: string; line: number; message: string }>;
  /** Expected findings that were not reported. */
  missed: Label[];
  /** Files with at least one cache-breaker warning. */
  breakerFiles: number;
}

export const GOALS = { warning: 0.9, information: 0.8, breakerFileShare: 0.01 } as const;

/** The report the product gives by default: the default primary target and default settings. */
export function defaultReport(
  inputs: readonly ReportFileInput[],
  disabledFormats: readonly (typeof SWITCHABLE_FORMATS)[number][] = [],
): PromptReport {
  // The editor's default workload (the interactive profile), as the editor's report uses.
  const target = findingTarget(resolveTarget(parseTargetId(DEFAULT_TARGET_IDS[0]), loadTables().tables), {
    concurrency: PROFILES.interactive.concurrency,
    outputTokens: PROFILES.interactive.outputTokens,
  });
  return buildReport(
    inputs,
    { tokenizer: getTokenizer(target.tokenizer), costModel: target.model, settings: DEFAULT_FINDING_SETTINGS },
    { disabledFormats },
  );
}

export function score(report: PromptReport, labels: readonly Label[]): Score {
  const key = (file: string, code: string, line: number) => `${file}\u0000${code}\u0000${line}`;
  const byKey = new Map(labels.map((l) => [key(l.file, l.code, l.line), l]));
  const counts = new Map<FindingCode, CodeScore>();
  const unlabelled: Score['unlabelled'] = [];
  const reportedKeys = new Set<string>();
  for (const f of report.findings) {
    const k = key(f.file, f.code, f.range.startPosition.line);
    reportedKeys.add(k);
    const c = counts.get(f.code) ?? {
      code: f.code,
      severity: f.severity,
      reported: 0,
      correct: 0,
      expected: 0,
      found: 0,
    };
    counts.set(f.code, c);
    c.reported++;
    const label = byKey.get(k);
    if (label?.verdict === 'expected') c.correct++;
    if (!label) unlabelled.push({ file: f.file, code: f.code, line: f.range.startPosition.line, message: f.message });
  }
  const missed: Label[] = [];
  for (const l of labels) {
    if (l.verdict !== 'expected') continue;
    const c = counts.get(l.code) ?? {
      code: l.code,
      severity: severityOf(l.code),
      reported: 0,
      correct: 0,
      expected: 0,
      found: 0,
    };
    counts.set(l.code, c);
    c.expected++;
    if (reportedKeys.has(key(l.file, l.code, l.line))) c.found++;
    else missed.push(l);
  }
  const breakerFiles = new Set(report.findings.filter((f) => f.code === 'cache-breaker').map((f) => f.file)).size;
  return {
    files: report.files.length,
    byCode: FINDING_CODES.flatMap((code) => counts.get(code) ?? []),
    unlabelled,
    missed,
    breakerFiles,
  };
}

function severityOf(code: FindingCode): FindingSeverity {
  if (code === 'context-window') return 'error';
  return ['rag-budget', 'cache-breaker', 'instructions-budget'].includes(code) ? 'warning' : 'information';
}

/** Correct / reported over every finding of a severity (errors count with warnings). */
export function precisionOf(
  scores: readonly Score[],
  severity: 'warning' | 'information',
): { correct: number; reported: number } {
  const rows = scores
    .flatMap((s) => s.byCode)
    .filter((c) => (severity === 'warning' ? c.severity !== 'information' : c.severity === 'information'));
  return { correct: rows.reduce((n, c) => n + c.correct, 0), reported: rows.reduce((n, c) => n + c.reported, 0) };
}

const percent = (part: number, whole: number): string => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`);

/** The per-code table of one score. */
export function formatScore(s: Score): string[] {
  const rows = [['code', 'severity', 'reported', 'correct', 'precision', 'expected', 'found', 'recall']];
  for (const c of s.byCode)
    rows.push([
      c.code,
      c.severity,
      String(c.reported),
      String(c.correct),
      percent(c.correct, c.reported),
      String(c.expected),
      String(c.found),
      percent(c.found, c.expected),
    ]);
  if (s.byCode.length === 0) return ['  no findings'];
  const widths = (rows[0] as string[]).map((_, i) => Math.max(...rows.map((r) => (r[i] as string).length)));
  const lines = rows.map(
    (r) =>
      `  ${r.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number))).join('  ')}`,
  );
  for (const u of s.unlabelled)
    lines.push(`  unlabelled (counted wrong): ${u.file}:${u.line} ${u.code} — ${u.message.slice(0, 100)}`);
  for (const m of s.missed) lines.push(`  missed: ${m.file}:${m.line} ${m.code}${m.note ? ` — ${m.note}` : ''}`);
  return lines;
}

/** "12/12 correct (100.0%, goal ≥ 90%: met)". */
export function goalLine(p: { correct: number; reported: number }, goal: number): string {
  if (p.reported === 0) return `none reported (goal ≥ ${goal * 100}%: nothing to judge)`;
  const met = p.correct / p.reported >= goal;
  return `${p.correct}/${p.reported} correct (${percent(p.correct, p.reported)}, goal ≥ ${goal * 100}%: ${met ? 'met' : 'NOT MET'})`;
}
