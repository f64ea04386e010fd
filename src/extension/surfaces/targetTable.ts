// What the status bar, its tooltip and the hover say about each target, built once (no vscode import, so unit
// tests read it too): the status line, the scenario line (said once per view), the table rows and the footnotes
// (why a warm cell is blank, the serving stack and scope assumed). Words go through `t` (vscode.l10n.t from the
// surfaces, English by default); numbers and their formatting do not change with the language.
import { correctionDetail } from '../../core/calibrate/tokenCorrection';
import { formatMs, formatRange, formatTokenCount, formatTokens, formatUsd, markCorrected } from '../../core/format';
import { cachedLabel, workloadLabel } from '../../core/estimate/scenarios';
import { english, type Translate } from '../../core/l10n';
import { markdownText } from '../../core/markdown';
import type { TargetEstimate } from '../../core/analysis/targetEstimates';
import type { DocumentAnalysis } from '../analysis/analyzer';

/** Figure space: Markdown tables in a hover have almost no cell padding, so numbers get a gap of their own. */
const GAP = '\u2007\u2007';

/**
 * "Cold and warm at 8 concurrent requests, 256 output tokens (interactive profile); warm: 2,048 of 5,788 tokens
 * cached, the static prefix." — every figure below it belongs to one of these two scenarios.
 */
export function scenarioLine(a: DocumentAnalysis, t: Translate = english): string {
  const primary = a.targets[0];
  const warm = primary?.warm ?? a.targets.find((e) => e.warm)?.warm;
  const cached = warm
    ? ` ${t('Warm: {0} ({1}), served from the cache.', cachedLabel(warm.scenario, t), prefixLabel(a.cacheable?.source ?? 'static', t))}`
    : '';
  return `_${t('Cold and warm at {0} ({1} profile).', workloadLabel(a.profile, t), a.profile.name)}${cached}_`;
}

/** Where the cached prefix ends, in words. */
function prefixLabel(source: string, t: Translate): string {
  if (source === 'static') return t('the static prefix, up to the first dynamic part');
  if (source === 'shared with other prompts') return t('the prefix shared with other prompts');
  return t('the {0}', source);
}

/** One short mark per target without a warm figure, explained in footnotes (¹ ² …). */
export function warmNotes(
  targets: readonly TargetEstimate[],
  t: Translate = english,
): {
  mark: (target: TargetEstimate) => string;
  lines: string[];
} {
  const reasons = [...new Set(targets.filter((e) => !e.warm && e.noWarm).map((e) => e.noWarm as string))];
  const marks = ['¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
  const markOf = (reason: string) => marks[reasons.indexOf(reason)] ?? '*';
  return {
    mark: (e) => (e.warm || !e.noWarm ? '' : markOf(e.noWarm)),
    lines: reasons.map((r) => `${markOf(r)} ${t('no warm figure: {0}', markdownText(r))}`),
  };
}

/** The hover's table: TTFT cold (with its range) and warm, TPOT, cold E2E and $/call, $ per 1,000 calls. */
export function hoverTable(a: DocumentAnalysis, t: Translate = english): string[] {
  const notes = warmNotes(a.targets, t);
  return [
    tableRow([
      t('target'),
      t('TTFT cold'),
      t('TTFT warm'),
      t('TPOT'),
      t('E2E cold'),
      t('$/call cold'),
      t('$/1k calls'),
    ]),
    '|:--|--:|--:|--:|--:|--:|--:|',
    ...a.targets.map((e) => {
      const calibrated = e.calibratedOn ? ` · ${t('calibrated ({0})', markdownText(e.calibratedOn))}` : '';
      const cells = [
        formatRange(e.cold.ttftMs),
        e.warm ? formatMs(e.warm.ttftMs.p50) : `–${notes.mark(e)}`,
        formatMs(e.cold.tpotMs.p50),
        formatMs(e.cold.e2eMs.p50),
        formatUsd(e.cold.costUsd),
        formatUsd((e.warm ?? e.cold).costPer1kCallsUsd),
      ];
      return `| ${markdownText(e.label)}${calibrated} | ${cells.map((c) => `${GAP}${c}`).join(' | ')} |`;
    }),
  ];
}

/** A Markdown table row of (already translated) header cells. */
function tableRow(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** The status bar tooltip's table: tokens per target (tokenizers differ), TTFT cold and warm, cold $/call. */
export function tooltipTable(a: DocumentAnalysis, t: Translate = english): string[] {
  const notes = warmNotes(a.targets, t);
  return [
    tableRow([t('target'), t('tokens'), t('TTFT cold'), t('TTFT warm'), t('TPOT'), t('$/call cold')]),
    '|:--|--:|--:|--:|--:|--:|',
    ...a.targets.map(
      (e) =>
        `| ${markdownText(e.label)} | ${[
          formatTokenCount(e.inputTokens, e.exact, e.corrected, t),
          formatMs(e.cold.ttftMs.p50),
          e.warm ? formatMs(e.warm.ttftMs.p50) : `–${notes.mark(e)}`,
          formatMs(e.cold.tpotMs.p50),
          formatUsd(e.cold.costUsd),
        ]
          .map((c) => `${GAP}${c}`)
          .join(' | ')} |`,
    ),
  ];
}

/** Footnotes under either table: blank warm cells, and what each target's latency assumes. */
export function footnotes(a: DocumentAnalysis, t: Translate = english): string[] {
  const release = releaseNote(a.targets, t);
  return [
    ...warmNotes(a.targets, t).lines,
    t('Serving: {0}.', a.targets.map((e) => `${e.label} — ${e.serving}`).join('; ')),
    ...(release ? [release] : []),
    // An approximate count an endpoint's bills corrected: from what, and how.
    ...a.targets.flatMap((e) =>
      e.corrected ? [t('Tokens of {0} {1}.', markdownText(e.label), markdownText(correctionDetail(e.corrected)))] : [],
    ),
  ];
}

/**
 * "Engine release: llama-3.1-70b · … — vLLM current (0.6-0.11)." for the self-hosted targets (calibrated ones
 * measured theirs): which release range the efficiencies stand for, the given version and its factor when older.
 */
export function releaseNote(targets: readonly TargetEstimate[], t: Translate = english): string | undefined {
  const parts = targets.flatMap((e) => {
    const release = e.calibratedOn ? undefined : e.cold.estimate.assumptions?.release;
    if (!release) return [];
    const given = release.given !== undefined ? ` (${t('version {0}', release.given)})` : '';
    const factor = release.prefillFactor !== 1 ? `, ${t('prefill ×{0}', String(release.prefillFactor))}` : '';
    return [`${e.label} — ${release.label}${given}${factor}`];
  });
  return parts.length > 0 ? t('Engine release: {0}.', parts.join('; ')) : undefined;
}

/**
 * The status bar line: `12,480 tok · TTFT 1.1 s cold · 310 ms warm · $0.031/call`. The headline is the cold TTFT
 * (what a first-time user waits); warm is beside it only when a real cacheable prefix exists.
 */
export function statusLine(
  inputTokens: number,
  exact: boolean,
  primary: TargetEstimate | undefined,
  t: Translate = english,
  corrected: { requests: number } | undefined = primary?.corrected,
): string {
  const tokens = markCorrected(t('{0} tok', formatTokens(inputTokens, exact)), corrected, t);
  if (!primary) return tokens;
  const cold = formatMs(primary.cold.ttftMs.p50);
  // A warm figure that reads the same as the cold one (a few cached tokens) says nothing here; the tooltip has it.
  const warmMs = primary.warm ? formatMs(primary.warm.ttftMs.p50) : cold;
  const warm = warmMs === cold ? '' : ` · ${t('{0} warm', warmMs)}`;
  return t('{0} · TTFT {1} cold{2} · {3}/call', tokens, cold, warm, formatUsd(primary.cold.costUsd));
}

/**
 * What the hover and the status bar tooltip say is not in yet, instead of waiting for it: the findings (with them the
 * cacheable prefix behind the warm figures) and the cheapest-target line. Empty once everything is in.
 */
export function pendingLines(
  a: Pick<DocumentAnalysis, 'findingsPending'>,
  cheapestPending: boolean,
  t: Translate = english,
): string[] {
  const lines: string[] = [];
  if (a.findingsPending === 'running')
    lines.push(`$(sync~spin) ${t('Findings and warm figures: pending… (tokens and cold figures are final)')}`);
  else if (a.findingsPending === 'scan')
    lines.push(
      `$(sync~spin) ${t('Findings: pending… (the workspace scan is still running: prompts sharing this prefix may be missing)')}`,
    );
  if (cheapestPending) lines.push(`$(sync~spin) ${t('Cheapest target meeting the SLO: pending…')}`);
  return lines;
}

/** The hover of a prompt whose first count is not in yet: answered at once, filled in by the next hover. */
export function countingHover(t: Translate = english): string {
  return t('**Prompt Latency Lens** — tokens: pending… (this version is being counted)');
}
