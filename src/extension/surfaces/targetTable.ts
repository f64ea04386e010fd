// What the status bar, its tooltip and the hover say about each target, built once (no vscode import, so unit
// tests read it too): the status line, the scenario line (said once per view), the table rows and the footnotes
// (why a warm cell is blank, the serving stack and scope assumed).
import { formatMs, formatRange, formatTokens, formatUsd } from '../../core/format';
import { cachedLabel, workloadLabel } from '../../core/estimate/scenarios';
import { markdownText } from '../../core/markdown';
import type { TargetEstimate } from '../../core/analysis/targetEstimates';
import type { DocumentAnalysis } from '../analysis/analyzer';

/** Figure space: Markdown tables in a hover have almost no cell padding, so numbers get a gap of their own. */
const GAP = '\u2007\u2007';

/**
 * "Cold and warm at 8 concurrent requests, 256 output tokens (interactive profile); warm: 2,048 of 5,788 tokens
 * cached, the static prefix." — every figure below it belongs to one of these two scenarios.
 */
export function scenarioLine(a: DocumentAnalysis): string {
  const primary = a.targets[0];
  const warm = primary?.warm ?? a.targets.find((t) => t.warm)?.warm;
  const cached = warm
    ? ` Warm: ${cachedLabel(warm.scenario)} (${prefixLabel(a.cacheable?.source ?? 'static')}), served from the cache.`
    : '';
  return `_Cold and warm at ${workloadLabel(a.profile)} (${a.profile.name} profile).${cached}_`;
}

/** Where the cached prefix ends, in words. */
function prefixLabel(source: string): string {
  if (source === 'static') return 'the static prefix, up to the first dynamic part';
  if (source === 'shared with other prompts') return 'the prefix shared with other prompts';
  return `the ${source}`;
}

/** One short mark per target without a warm figure, explained in footnotes (¹ ² …). */
export function warmNotes(targets: readonly TargetEstimate[]): {
  mark: (t: TargetEstimate) => string;
  lines: string[];
} {
  const reasons = [...new Set(targets.filter((t) => !t.warm && t.noWarm).map((t) => t.noWarm as string))];
  const marks = ['¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
  const markOf = (reason: string) => marks[reasons.indexOf(reason)] ?? '*';
  return {
    mark: (t) => (t.warm || !t.noWarm ? '' : markOf(t.noWarm)),
    lines: reasons.map((r) => `${markOf(r)} no warm figure: ${markdownText(r)}`),
  };
}

/** The hover's table: TTFT cold (with its range) and warm, TPOT, cold E2E and $/call, $ per 1,000 calls. */
export function hoverTable(a: DocumentAnalysis): string[] {
  const notes = warmNotes(a.targets);
  return [
    `| target | TTFT cold | TTFT warm | TPOT | E2E cold | $/call cold | $/1k calls |`,
    '|:--|--:|--:|--:|--:|--:|--:|',
    ...a.targets.map((t) => {
      const calibrated = t.calibratedOn ? ` · calibrated (${markdownText(t.calibratedOn)})` : '';
      const cells = [
        formatRange(t.cold.ttftMs),
        t.warm ? formatMs(t.warm.ttftMs.p50) : `–${notes.mark(t)}`,
        formatMs(t.cold.tpotMs.p50),
        formatMs(t.cold.e2eMs.p50),
        formatUsd(t.cold.costUsd),
        formatUsd((t.warm ?? t.cold).costPer1kCallsUsd),
      ];
      return `| ${markdownText(t.label)}${calibrated} | ${cells.map((c) => `${GAP}${c}`).join(' | ')} |`;
    }),
  ];
}

/** The status bar tooltip's table: tokens per target (tokenizers differ), TTFT cold and warm, cold $/call. */
export function tooltipTable(a: DocumentAnalysis): string[] {
  const notes = warmNotes(a.targets);
  return [
    '| target | tokens | TTFT cold | TTFT warm | TPOT | $/call cold |',
    '|:--|--:|--:|--:|--:|--:|',
    ...a.targets.map(
      (t) =>
        `| ${markdownText(t.label)} | ${[
          formatTokens(t.inputTokens, t.exact),
          formatMs(t.cold.ttftMs.p50),
          t.warm ? formatMs(t.warm.ttftMs.p50) : `–${notes.mark(t)}`,
          formatMs(t.cold.tpotMs.p50),
          formatUsd(t.cold.costUsd),
        ]
          .map((c) => `${GAP}${c}`)
          .join(' | ')} |`,
    ),
  ];
}

/** Footnotes under either table: blank warm cells, and what each target's latency assumes. */
export function footnotes(a: DocumentAnalysis): string[] {
  return [...warmNotes(a.targets).lines, `Serving: ${a.targets.map((t) => `${t.label} — ${t.serving}`).join('; ')}.`];
}

/**
 * The status bar line: `12,480 tok · TTFT 1.1 s cold · 310 ms warm · $0.031/call`. The headline is the cold TTFT
 * (what a first-time user waits); warm is beside it only when a real cacheable prefix exists.
 */
export function statusLine(inputTokens: number, exact: boolean, primary: TargetEstimate | undefined): string {
  const tokens = `${formatTokens(inputTokens, exact)} tok`;
  if (!primary) return tokens;
  const cold = formatMs(primary.cold.ttftMs.p50);
  // A warm figure that reads the same as the cold one (a few cached tokens) says nothing here; the tooltip has it.
  const warmMs = primary.warm ? formatMs(primary.warm.ttftMs.p50) : cold;
  const warm = warmMs === cold ? '' : ` · ${warmMs} warm`;
  return `${tokens} · TTFT ${cold} cold${warm} · ${formatUsd(primary.cold.costUsd)}/call`;
}
