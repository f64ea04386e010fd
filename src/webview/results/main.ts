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
  predictionErrorText,
  runName,
  ttftCdf,
  verdict,
} from './model';
import type { BenchResult } from '../../core/bench/result';
import { formatUsageCheck, usageBasis, usageDifference, usageMatches } from '../../core/bench/usageFormat';
import { formatCount } from '../../core/format';
import { DEFAULT_SLO_MIN_SHARE, percentError, shareText, speedupText } from '../../core/bench/stats';
import { fill, readStrings } from '../common/strings';
import { RESULTS_STRINGS } from './strings';

const app = document.getElementById('app') as HTMLElement;
const s = readStrings(RESULTS_STRINGS, app);
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
    progress.textContent = fill(s.running, state.progress ?? '');
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
        h('h1', {}, s.heading, h('span', { class: 'prompt' }, state.prompt)),
        h('p', { class: 'muted' }, state.endpoint),
        h('p', { class: 'badge running', 'data-test': 'progress' }, fill(s.running, state.progress ?? '')),
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
      h('h1', {}, s.heading, h('span', { class: 'prompt' }, state.prompt)),
      h(
        'p',
        { class: 'muted' },
        `${result.endpoint.name} · ${result.endpoint.model} · ${result.endpoint.kind} · ${new Date(result.startedAt).toLocaleString()}`,
      ),
      state.running
        ? h('p', { class: 'badge running', 'data-test': 'progress' }, fill(s.running, state.progress ?? ''))
        : null,
      state.running ? stopButton() : null,
      sourceLine(result),
      result.partial
        ? h('p', { class: 'badge partial', 'data-test': 'partial' }, fill(s.partial, result.partialReason ?? s.stopped))
        : null,
      h(
        'div',
        { class: 'actions' },
        h('button', { onclick: () => host.post({ type: 'export', format: 'json' }) }, s.exportJson),
        h('button', { onclick: () => host.post({ type: 'export', format: 'csv' }) }, s.exportCsv),
      ),
    ),
    summary({ ...state, result }, v.pass, v.failures),
    h('h2', {}, s.percentiles),
    levelTable(result),
    state.compare ? comparison(result, state.compare) : null,
    h('h2', {}, s.charts),
    h(
      'div',
      { class: 'charts' },
      h('figure', { id: 'cdf' }, h('figcaption', {}, s.cdfCaption)),
      h('figure', { id: 'knee' }, h('figcaption', {}, s.kneeCaption)),
      h('figure', { id: 'itl' }, h('figcaption', {}, s.itlCaption)),
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
      fill(
        s.importedFrom,
        `${source.tool}${source.version ? ` ${source.version}` : ''}`,
        source.file,
        source.percentiles,
      ),
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
    h('h2', {}, s.sideBySide),
    h(
      'p',
      { class: 'muted' },
      fill(
        s.sideBySideRuns,
        runName(a),
        new Date(a.startedAt).toLocaleString(),
        runName(b),
        new Date(b.startedAt).toLocaleString(),
      ),
    ),
    rows.length === 0
      ? h('p', {}, s.noCommonLevel)
      : h(
          'table',
          {},
          h('thead', {}, h('tr', {}, h('th', {}, s.cache), h('th', {}, s.level), ...names.map((n) => h('th', {}, n)))),
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
    s.stop,
  );
}

function summary(state: ResultsViewState & { result: BenchResult }, pass: boolean, failures: string[]): HTMLElement {
  const { result, previous } = state;
  const head = headlineLevel(result);
  const top = head?.level.summary;
  const speedup = result.cacheSpeedup?.[0];
  const measuredTtft = top?.ttftMs?.p50;
  const measuredTpot = top?.tpotMs?.p50;
  const prevHead = previous ? headlineLevel(previous)?.level.summary : undefined;
  const cards: HTMLElement[] = [
    card(
      s.slo,
      pass ? s.pass : s.fail,
      fill(s.sloDetail, Math.round(DEFAULT_SLO_MIN_SHARE * 100), ms(result.slo.ttftMs), ms(result.slo.tpotMs)),
      pass ? 'pass' : 'fail',
      'verdict',
    ),
    card(
      s.goodput,
      top && top.goodput !== null ? fill(s.reqPerSecond, top.goodput.toFixed(2)) : '–',
      top ? fill(s.goodputDetail, shareText(top.sloShare), head?.level.label ?? '') : '',
      undefined,
      'goodput',
    ),
    card(
      s.ttftPercentiles,
      top?.ttftMs ? `${ms(top.ttftMs.p50)} / ${ms(top.ttftMs.p95)} / ${ms(top.ttftMs.p99)}` : '–',
      `${head?.mode.cache ?? ''} ${head?.level.label ?? ''}`,
      undefined,
      'ttft',
    ),
    card(
      s.tpotPercentiles,
      top?.tpotMs ? `${ms(top.tpotMs.p50)} / ${ms(top.tpotMs.p95)} / ${ms(top.tpotMs.p99)}` : '–',
      top?.outputTokensPerSecond ? fill(s.tokPerRequest, top.outputTokensPerSecond.p50.toFixed(0)) : '',
      undefined,
      'tpot',
    ),
  ];
  if (speedup) {
    const text = speedupText(speedup);
    cards.push(card(s.prefixCache, text.value, text.detail, undefined, 'cache'));
  }
  const errorPct = head?.level.predictionErrorPct?.ttft;
  if (result.prediction?.ttftMs !== undefined && measuredTtft !== undefined && errorPct !== undefined) {
    const tpotLine =
      result.prediction.tpotMs !== undefined && measuredTpot !== undefined
        ? fill(s.tpotVs, ms(result.prediction.tpotMs), ms(measuredTpot))
        : '';
    cards.push(
      card(
        s.predicted,
        predictionErrorText(errorPct, s),
        fill(s.predictedDetail, ms(result.prediction.ttftMs), ms(measuredTtft), tpotLine, result.endpoint.target ?? ''),
        undefined,
        'prediction',
      ),
    );
  }
  if (result.usage) {
    const u = result.usage;
    cards.push(
      card(
        s.usage,
        usageMatches(u) ? `${formatCount(u.billed)} ✓` : usageDifference(u),
        fill(s.usageDetail, formatUsageCheck(u), usageBasis(u)),
        undefined,
        'usage',
      ),
    );
  }
  if (prevHead?.ttftMs && measuredTtft !== undefined) {
    const change = percentError(measuredTtft, prevHead.ttftMs.p50);
    cards.push(
      card(
        s.previous,
        pct(change),
        fill(
          s.previousDetail,
          ms(prevHead.ttftMs.p50),
          ms(measuredTtft),
          new Date(previous!.startedAt).toLocaleString(),
        ),
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
        h('h3', {}, s.errors),
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

/**
 * One row per cache mode × level. The verdict (SLO, goodput) comes first after the level, so a narrow editor group
 * shows it; the table scrolls sideways inside its own box for the rest.
 */
function levelTable(result: BenchResult): HTMLElement {
  const header: [string, string?][] = [
    [s.cache],
    [s.level],
    [s.slo, 'verdict'],
    [s.goodputHeader, 'num'],
    [s.ttftP50, 'num'],
    [s.p95, 'num'],
    [s.p99, 'num'],
    [s.tpotP50, 'num'],
    [s.p95, 'num'],
    [s.p99, 'num'],
    [s.itlP50, 'num'],
    [s.e2eP50, 'num'],
    [s.outTokPerSecond, 'num'],
    [s.reqPerSecondHeader, 'num'],
    [s.requests, 'num'],
    [s.failed, 'num'],
  ];
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { 'data-test': 'levels' },
      h('thead', {}, h('tr', {}, ...header.map(([title, cls]) => h('th', cls ? { class: cls } : {}, title)))),
      h(
        'tbody',
        {},
        ...levelRows(result).map((r) =>
          h(
            'tr',
            { class: r.meetsSlo ? 'ok' : 'miss' },
            h('td', {}, r.mode),
            h('td', {}, r.level),
            h('td', { class: 'verdict' }, r.meetsSlo ? '✓' : '✗'),
            h('td', { class: 'num' }, r.goodput === null ? '–' : r.goodput.toFixed(2)),
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
            h('td', { class: 'num' }, r.requests),
            h('td', { class: 'num' }, r.failed),
          ),
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
        axes: [axis(s.ttftAxis), axis(s.shareAxis)],
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
          axes: [axis(s.concurrencyAxis), axis(s.ttftAxis), { ...axis(s.outputTokPerSecondAxis, 'tps'), side: 1 }],
          series: [
            {},
            { label: s.ttftP50Ms, ...p50, width: 2 },
            { label: s.ttftP99Ms, ...p99, width: 2 },
            // On its own axis it can cross the TTFT lines: points as well as its own colour and dash.
            { label: s.tokPerSecondRight, ...tps, width: 2, scale: 'tps', points: { show: true, size: 6 } },
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
            axes: [axis(s.outputTokenAxis), axis(s.itlAxis)],
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
