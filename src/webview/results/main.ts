// The benchmark results view: summary, percentiles per level, charts. Text only through the DOM
// (never innerHTML), colours from the --vscode-* theme variables, redrawn on theme change.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import '../common/view.css';
import { connect } from '../common/host';
import { h, replaceChildren, themeColor } from '../common/dom';
import { applyResultsDelta, onlyProgress, type ResultsDelta } from './delta';
import { seriesStyles, type SeriesStyle } from './seriesStyles';
import type { ResultsViewState } from './state';
import {
  alignCdfs,
  compareRuns,
  headlineLevel,
  itlByPosition,
  kneeSeries,
  levelRows,
  ms,
  pct,
  runName,
  ttftCdf,
  verdict,
} from './model';
import type { BenchResult } from '../../core/bench/result';
import { formatUsageCheck, usageBasis, usageDifference, usageMatches } from '../../core/bench/usageFormat';
import { DEFAULT_SLO_MIN_SHARE, percentError, shareText, speedupText } from '../../core/bench/stats';

const app = document.getElementById('app') as HTMLElement;
const charts: uPlot[] = [];
// Progress ticks are not saved for a reload: it redraws from the last level, then the host's whole state.
const host = connect<ResultsViewState, ResultsDelta>(render, applyResultsDelta, (d) => !onlyProgress(d));

/** What the view shows apart from the progress text: the host sends what changed every 250 ms while running. */
function shape(state: ResultsViewState): string {
  const levels = state.result?.modes.map((m) => `${m.cache}:${m.levels.length}`).join(',') ?? '';
  return [
    state.prompt,
    state.endpoint,
    state.running,
    state.result?.startedAt,
    state.result?.partial,
    levels,
    state.previous?.startedAt,
    state.compare?.startedAt,
    state.compare?.source?.file,
  ].join('|');
}

let shown: string | undefined;

function render(state: ResultsViewState): void {
  const progress = app.querySelector('[data-test=progress]');
  if (progress && shape(state) === shown) {
    // Only the progress moved: no rebuild of tables and charts (a level can hold 100,000 samples).
    progress.textContent = `Running… ${state.progress ?? ''}`;
    return;
  }
  shown = shape(state);
  for (const chart of charts.splice(0)) chart.destroy();
  const { result } = state;
  if (!result) {
    replaceChildren(
      app,
      h(
        'header',
        {},
        h('h1', {}, 'Benchmark: ', h('span', { class: 'prompt' }, state.prompt)),
        h('p', { class: 'muted' }, state.endpoint),
        h('p', { class: 'badge running', 'data-test': 'progress' }, `Running… ${state.progress ?? ''}`),
        stopButton(),
      ),
    );
    return;
  }
  const v = verdict(result);
  replaceChildren(
    app,
    h(
      'header',
      {},
      h('h1', {}, 'Benchmark: ', h('span', { class: 'prompt' }, state.prompt)),
      h(
        'p',
        { class: 'muted' },
        `${result.endpoint.name} · ${result.endpoint.model} · ${result.endpoint.kind} · ${new Date(result.startedAt).toLocaleString()}`,
      ),
      state.running
        ? h('p', { class: 'badge running', 'data-test': 'progress' }, `Running… ${state.progress ?? ''}`)
        : null,
      state.running ? stopButton() : null,
      sourceLine(result),
      result.partial
        ? h(
            'p',
            { class: 'badge partial', 'data-test': 'partial' },
            `Partial result (${result.partialReason ?? 'stopped'}): levels or requests are missing`,
          )
        : null,
      h(
        'div',
        { class: 'actions' },
        h('button', { onclick: () => host.post({ type: 'export', format: 'json' }) }, 'Export JSON'),
        h('button', { onclick: () => host.post({ type: 'export', format: 'csv' }) }, 'Export CSV'),
      ),
    ),
    summary({ ...state, result }, v.pass, v.failures),
    h('h2', {}, 'Percentiles per level'),
    levelTable(result),
    state.compare ? comparison(result, state.compare) : null,
    h('h2', {}, 'Charts'),
    h(
      'div',
      { class: 'charts' },
      h('figure', { id: 'cdf' }, h('figcaption', {}, 'TTFT distribution (CDF)')),
      h('figure', { id: 'knee' }, h('figcaption', {}, 'TTFT p50/p99 and output tokens/s vs concurrency')),
      h('figure', { id: 'itl' }, h('figcaption', {}, 'Inter-token latency across the output')),
    ),
  );
  drawCharts(result);
}

/** Where an imported run came from and how its figures differ from this client's. */
function sourceLine(result: BenchResult): HTMLElement | null {
  const source = result.source;
  if (!source) return null;
  return h(
    'div',
    { class: 'muted', 'data-test': 'source' },
    h(
      'p',
      {},
      `Imported from ${source.tool}${source.version ? ` ${source.version}` : ''} (${source.file}); percentiles: ${source.percentiles}`,
    ),
    source.notes.length ? h('ul', {}, ...source.notes.map((n) => h('li', {}, n))) : null,
  );
}

/** Two runs side by side: per level both measured, each percentile of A and B and B's difference. */
function comparison(a: BenchResult, b: BenchResult): HTMLElement {
  const rows = compareRuns(a, b);
  const names = rows[0]?.cells.map((c) => c.name) ?? [];
  return h(
    'section',
    { 'data-test': 'comparison' },
    h('h2', {}, 'Side by side'),
    h(
      'p',
      { class: 'muted' },
      `A: ${runName(a)}, ${new Date(a.startedAt).toLocaleString()} · B: ${runName(b)}, ${new Date(b.startedAt).toLocaleString()}; each cell A → B (B − A in %)`,
    ),
    rows.length === 0
      ? h('p', {}, 'The two runs have no level in common (same cache mode and concurrency or rate).')
      : h(
          'table',
          {},
          h('thead', {}, h('tr', {}, h('th', {}, 'cache'), h('th', {}, 'level'), ...names.map((n) => h('th', {}, n)))),
          h(
            'tbody',
            {},
            ...rows.map((r) =>
              h(
                'tr',
                {},
                h('td', {}, r.mode),
                h('td', {}, r.level),
                ...r.cells.map((c) =>
                  h(
                    'td',
                    { class: 'num' },
                    `${ms(c.a)} → ${ms(c.b)}${c.deltaPct !== undefined ? ` (${pct(c.deltaPct)})` : ''}`,
                  ),
                ),
              ),
            ),
          ),
        ),
  );
}

function stopButton(): HTMLElement {
  return h(
    'button',
    { 'data-test': 'stop', onclick: () => host.post({ type: 'command', command: 'promptLens.cancelBenchmark' }) },
    'Stop',
  );
}

function summary(state: ResultsViewState & { result: BenchResult }, pass: boolean, failures: string[]): HTMLElement {
  const { result, previous } = state;
  const head = headlineLevel(result);
  const s = head?.level.summary;
  const speedup = result.cacheSpeedup?.[0];
  const measuredTtft = s?.ttftMs?.p50;
  const measuredTpot = s?.tpotMs?.p50;
  const prevHead = previous ? headlineLevel(previous)?.level.summary : undefined;
  const cards: HTMLElement[] = [
    card(
      'SLO',
      pass ? 'PASS' : 'FAIL',
      `≥ ${Math.round(DEFAULT_SLO_MIN_SHARE * 100)}% of requests at every level within TTFT ≤ ${ms(result.slo.ttftMs)} and TPOT ≤ ${ms(result.slo.tpotMs)}`,
      pass ? 'pass' : 'fail',
      'verdict',
    ),
    card(
      'Goodput',
      s && s.goodput !== null ? `${s.goodput.toFixed(2)} req/s` : '–',
      s ? `${shareText(s.sloShare)} of requests met both SLOs (${head?.level.label})` : '',
      undefined,
      'goodput',
    ),
    card(
      'TTFT p50 / p95 / p99',
      s?.ttftMs ? `${ms(s.ttftMs.p50)} / ${ms(s.ttftMs.p95)} / ${ms(s.ttftMs.p99)}` : '–',
      `${head?.mode.cache ?? ''} ${head?.level.label ?? ''}`,
      undefined,
      'ttft',
    ),
    card(
      'TPOT p50 / p95 / p99',
      s?.tpotMs ? `${ms(s.tpotMs.p50)} / ${ms(s.tpotMs.p95)} / ${ms(s.tpotMs.p99)}` : '–',
      `${s?.outputTokensPerSecond ? `${s.outputTokensPerSecond.p50.toFixed(0)} tok/s per request` : ''}`,
      undefined,
      'tpot',
    ),
  ];
  if (speedup) {
    const text = speedupText(speedup);
    cards.push(card('Prefix cache', text.value, text.detail, undefined, 'cache'));
  }
  const errorPct = head?.level.predictionErrorPct?.ttft;
  if (result.prediction?.ttftMs !== undefined && measuredTtft !== undefined && errorPct !== undefined) {
    const tpotLine =
      result.prediction.tpotMs !== undefined && measuredTpot !== undefined
        ? ` · TPOT ${ms(result.prediction.tpotMs)} vs ${ms(measuredTpot)}`
        : '';
    cards.push(
      card(
        'Predicted vs measured',
        `${pct(errorPct)}`,
        `TTFT ${ms(result.prediction.ttftMs)} predicted vs ${ms(measuredTtft)} measured${tpotLine} (${result.endpoint.target ?? ''})`,
        undefined,
        'prediction',
      ),
    );
  }
  if (result.usage) {
    const u = result.usage;
    cards.push(
      card(
        'Prompt tokens billed vs counted',
        usageMatches(u) ? `${u.billed} ✓` : usageDifference(u),
        `${formatUsageCheck(u)}; counted with ${usageBasis(u)}`,
        undefined,
        'usage',
      ),
    );
  }
  if (prevHead?.ttftMs && measuredTtft !== undefined) {
    const change = percentError(measuredTtft, prevHead.ttftMs.p50);
    cards.push(
      card(
        'vs previous run',
        pct(change),
        `TTFT p50 ${ms(prevHead.ttftMs.p50)} → ${ms(measuredTtft)} (${new Date(previous!.startedAt).toLocaleString()})`,
        undefined,
        'previous',
      ),
    );
  }
  return h(
    'section',
    { class: 'cards' },
    ...cards,
    failures.length > 0 ? h('ul', { class: 'failures' }, ...failures.map((f) => h('li', {}, f))) : null,
    errorsList(result),
  );
}

function errorsList(result: BenchResult): HTMLElement | null {
  const examples = result.modes.flatMap((m) =>
    m.levels.flatMap((l) =>
      Object.entries(l.summary.errorExamples).map(
        ([cls, message]) =>
          `${m.cache} ${l.label} · ${cls} × ${l.summary.errorsByClass[cls as keyof typeof l.summary.errorsByClass] ?? 0}: ${message}`,
      ),
    ),
  );
  return examples.length === 0
    ? null
    : h(
        'div',
        { class: 'errors' },
        h('h3', {}, 'Errors'),
        h('ul', { 'data-test': 'errors' }, ...examples.map((e) => h('li', {}, e))),
      );
}

function card(title: string, value: string, detail: string, tone: string | undefined, test: string): HTMLElement {
  return h(
    'div',
    { class: `card ${tone ?? ''}`, 'data-test': test },
    h('div', { class: 'card-title' }, title),
    h('div', { class: 'card-value' }, value),
    h('div', { class: 'card-detail' }, detail),
  );
}

function levelTable(result: BenchResult): HTMLElement {
  const header = [
    'cache',
    'level',
    'requests',
    'failed',
    'TTFT p50',
    'p95',
    'p99',
    'TPOT p50',
    'p95',
    'p99',
    'ITL p50',
    'E2E p50',
    'out tok/s',
    'req/s',
    'goodput',
    'SLO',
  ];
  return h(
    'table',
    { 'data-test': 'levels' },
    h('thead', {}, h('tr', {}, ...header.map((c) => h('th', {}, c)))),
    h(
      'tbody',
      {},
      ...levelRows(result).map((r) =>
        h(
          'tr',
          { class: r.meetsSlo ? 'ok' : 'miss' },
          h('td', {}, r.mode),
          h('td', {}, r.level),
          h('td', { class: 'num' }, r.requests),
          h('td', { class: 'num' }, r.failed),
          h('td', { class: 'num' }, ms(r.ttft?.p50)),
          h('td', { class: 'num' }, ms(r.ttft?.p95)),
          h('td', { class: 'num' }, ms(r.ttft?.p99)),
          h('td', { class: 'num' }, ms(r.tpot?.p50)),
          h('td', { class: 'num' }, ms(r.tpot?.p95)),
          h('td', { class: 'num' }, ms(r.tpot?.p99)),
          h('td', { class: 'num' }, ms(r.itlP50)),
          h('td', { class: 'num' }, ms(r.e2eP50)),
          h('td', { class: 'num' }, r.outputTokensPerSecond.toFixed(1)),
          h('td', { class: 'num' }, r.requestsPerSecond.toFixed(2)),
          h('td', { class: 'num' }, r.goodput === null ? '–' : r.goodput.toFixed(2)),
          h('td', {}, r.meetsSlo ? '✓' : '✗'),
        ),
      ),
    ),
  );
}

function drawCharts(result: BenchResult): void {
  const fg = themeColor('--vscode-foreground', '#ccc');
  const grid = themeColor('--vscode-editorWidget-border', '#444');
  const palette = [
    themeColor('--vscode-charts-blue', '#3794ff'),
    themeColor('--vscode-charts-orange', '#d18616'),
    themeColor('--vscode-charts-green', '#89d185'),
    themeColor('--vscode-charts-purple', '#b180d7'),
    themeColor('--vscode-charts-red', '#f14c4c'),
    themeColor('--vscode-charts-yellow', '#cca700'),
  ];
  const axis = (label: string, scale?: string): uPlot.Axis => ({
    label,
    stroke: fg,
    grid: { stroke: grid, width: 1 },
    ticks: { stroke: grid },
    ...(scale ? { scale } : {}),
  });
  const width = Math.max(320, Math.min(560, app.clientWidth / 2 - 24));

  // CDF: one series per mode/level, on a shared x of all TTFT values (uPlot needs aligned data).
  const curves = result.modes
    .flatMap((m) => m.levels.map((l) => ({ label: `${m.cache} ${l.label}`, ...ttftCdf(l) })))
    .filter((c) => c.x.length > 0);
  const { xs, ys } = alignCdfs(curves);
  if (xs.length > 0) {
    plot(
      'cdf',
      {
        width,
        height: 260,
        scales: { x: { time: false } },
        axes: [axis('TTFT (ms)'), axis('share ≤ x')],
        series: [
          {},
          ...seriesStyles(curves.length, palette).map((style, i) => ({
            label: curves[i]!.label,
            ...style,
            width: 2,
            paths: uPlot.paths.stepped?.({ align: 1 }),
          })),
        ],
      },
      [xs, ...ys],
    );
  }

  const mode =
    result.modes.find((m) => m.levels.filter((l) => l.concurrency !== undefined).length > 1) ?? result.modes[0];
  if (mode) {
    const knee = kneeSeries(mode);
    if (knee.concurrency.length > 0) {
      const [p50, p99, tps] = seriesStyles(3, palette) as [SeriesStyle, SeriesStyle, SeriesStyle];
      plot(
        'knee',
        {
          width,
          height: 260,
          scales: { x: { time: false, distr: 2 }, tps: {} },
          axes: [axis('concurrency'), axis('TTFT (ms)'), { ...axis('output tok/s', 'tps'), side: 1 }],
          series: [
            {},
            { label: 'TTFT p50 (ms)', ...p50, width: 2 },
            { label: 'TTFT p99 (ms)', ...p99, width: 2 },
            // On its own axis it can cross the TTFT lines: points as well as its own colour and dash.
            { label: 'output tok/s (right axis)', ...tps, width: 2, scale: 'tps', points: { show: true, size: 6 } },
          ],
        },
        [knee.concurrency, knee.ttftP50, knee.ttftP99, knee.tokensPerSecond],
      );
    }
    const level = mode.levels[0];
    if (level) {
      const itl = itlByPosition(level);
      if (itl.position.length > 0)
        plot(
          'itl',
          {
            width,
            height: 260,
            scales: { x: { time: false } },
            axes: [axis('output token'), axis('mean ITL (ms)')],
            series: [{}, { label: `${mode.cache} ${level.label}`, ...seriesStyles(1, palette)[0]!, width: 2 }],
          },
          [itl.position, itl.meanMs],
        );
    }
  }
}

/** Legends list the series only: a live legend shows "Value: --" until the pointer is over the chart. */
function plot(id: string, options: Omit<uPlot.Options, 'title' | 'legend'>, data: uPlot.AlignedData): void {
  const target = document.getElementById(id);
  if (target) charts.push(new uPlot({ ...options, legend: { live: false } } as uPlot.Options, data, target));
}
