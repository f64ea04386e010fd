import {
  formatUsageCheck,
  usageBasis,
  shareText,
  speedupText,
  type BenchResult,
  type MetricSummary,
  type SloVerdict,
} from '../../core/bench';

const ms = (d: MetricSummary | null, key: 'p50' | 'p90' | 'p99') => {
  const v = d?.[key];
  return v === undefined ? '–' : v.toFixed(v < 10 ? 2 : 0);
};
const rate = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(2));

/** The readable summary `prompt-lens bench` prints: one row per cache mode and level. */
export function formatBenchReport(result: BenchResult, verdict?: SloVerdict, promptFile?: string): string {
  const e = result.endpoint;
  // An endpoint from --base-url is named "command line": say which prompt was measured, and a name only if given.
  const endpoint = e.name === 'command line' ? '' : `, endpoint ${e.name}`;
  const lines = [
    `Benchmark of ${promptFile ?? 'the prompt'} on model ${e.model} (${e.kind}${endpoint}) at ${e.baseUrl}`,
    '',
  ];
  const source = result.source;
  if (source)
    lines.splice(
      1,
      0,
      `Imported from ${source.tool}${source.version ? ` ${source.version}` : ''} (${source.file}); percentiles: ${source.percentiles}`,
      ...source.notes.map((n) => `  note: ${n}`),
    );
  const header = [
    'cache',
    'level',
    'ok',
    'TTFT p50',
    'p90',
    'p99',
    'TPOT p50',
    'p90',
    'ITL p50',
    'p99',
    'E2E p50',
    'tok/s',
    'req/s',
    'goodput',
    'SLO met',
  ];
  const rows = result.modes.flatMap((m) =>
    m.levels.map((l) => {
      const s = l.summary;
      return [
        m.cache,
        l.label,
        `${s.succeeded}/${s.requests}`,
        ms(s.ttftMs, 'p50'),
        ms(s.ttftMs, 'p90'),
        ms(s.ttftMs, 'p99'),
        ms(s.tpotMs, 'p50'),
        ms(s.tpotMs, 'p90'),
        ms(s.itlMs, 'p50'),
        ms(s.itlMs, 'p99'),
        ms(s.e2eMs, 'p50'),
        rate(s.aggregateOutputTokensPerSecond),
        rate(s.requestsPerSecond),
        s.goodput === null ? '–' : rate(s.goodput),
        shareText(s.sloShare),
      ];
    }),
  );
  lines.push(...table([header, ...rows]));
  lines.push(
    '',
    `Times in ms; percentiles ${source ? 'as noted above' : 'by linear interpolation'}; tok/s, req/s and goodput (req/s meeting TTFT ≤ ${result.slo.ttftMs} ms and TPOT ≤ ${result.slo.tpotMs} ms) per level.`,
  );

  const errors = result.modes.flatMap((m) =>
    m.levels.flatMap((l) =>
      Object.entries(l.summary.errorsByClass).map(
        ([cls, n]) =>
          `  ${m.cache} ${l.label}: ${cls} ×${n} — ${l.summary.errorExamples[cls as keyof typeof l.summary.errorExamples] ?? ''}`,
      ),
    ),
  );
  if (errors.length) lines.push('', 'Errors:', ...errors);
  if (result.prediction) {
    const p = result.prediction;
    const pct = (v: number | undefined) => (v === undefined ? '–' : `${v >= 0 ? '+' : ''}${v.toFixed(0)}%`);
    const predicted = [
      p.ttftMs !== undefined ? `TTFT ${p.ttftMs.toFixed(0)} ms` : undefined,
      p.tpotMs !== undefined ? `TPOT ${p.tpotMs.toFixed(1)} ms` : undefined,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(
      '',
      `Predicted for ${e.target ?? 'the target'} (cold prompt, one request at a time): ${predicted}; error of the prediction against each level's median:`,
    );
    lines.push(
      ...result.modes.flatMap((m) =>
        m.levels
          .filter((l) => l.predictionErrorPct)
          .map(
            (l) =>
              `  ${m.cache} ${l.label}: TTFT ${pct(l.predictionErrorPct?.ttft)}, TPOT ${pct(l.predictionErrorPct?.tpot)}`,
          ),
      ),
    );
  }
  if (result.usage)
    lines.push('', `Prompt tokens (usage self-check, ${usageBasis(result.usage)}): ${formatUsageCheck(result.usage)}`);
  if (result.cacheSpeedup?.length) {
    lines.push(
      '',
      'Prefix cache (cold vs warm TTFT):',
      ...result.cacheSpeedup.map((s) => {
        const text = speedupText(s);
        return `  ${text.value}: ${text.detail}`;
      }),
    );
  }
  if (result.partial)
    lines.push(
      '',
      `PARTIAL result: the run was ${result.partialReason === 'time-limit' ? 'stopped by its time limit' : 'cancelled'}; some requests or levels are missing.`,
    );
  if (verdict)
    lines.push('', `SLO verdict: ${verdict.pass ? 'PASS' : 'FAIL'}`, ...verdict.failures.map((f) => `  ${f}`));
  return `${lines.join('\n')}\n`;
}

function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) =>
    r
      .map((cell, c) => (c < 2 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
}
