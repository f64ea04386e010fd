// `prompt-lens import artillery REPORT.json`: Artillery's `--output` JSON report of an exported run,
// back into this project's result schema. Only the prompt_lens.* metrics the processor emitted are
// read; each level's summary comes from Artillery's histogram summaries (DDSketch, 1% relative
// accuracy), its counts from the counters, so the SLO share and goodput are exact.
import { z } from 'zod';
import type { BenchResult, ErrorClass, LevelSummary, MetricSummary } from '../../bench/result';
import { ERROR_CLASSES } from '../../bench/result';
import {
  aggregateSummary,
  baseName,
  importedResult,
  parseJson,
  validate,
  type ImportedLevel,
  type Loaded,
} from '../imported';
import { RUN_FILE, runLevels, type ExportedRun } from '../run';
import { LEVEL_METRICS, metricName, METRIC_ROOT } from './scenario';

const summarySchema = z
  .object({
    min: z.number(),
    max: z.number(),
    count: z.number().int().min(0),
    mean: z.number(),
    p50: z.number(),
    p90: z.number(),
    p95: z.number(),
    p99: z.number(),
  })
  .loose();

const periodSchema = z
  .object({
    counters: z.record(z.string(), z.number()).default({}),
    summaries: z.record(z.string(), summarySchema).optional(),
    histograms: z.record(z.string(), summarySchema).optional(),
    firstMetricAt: z.number().optional(),
  })
  .loose();

/** Artillery 2.x `artillery run --output FILE` (also run-lambda/run-fargate/run-aci): the aggregate is what is read. */
export const artilleryReportSchema = z
  .object({ aggregate: periodSchema, intermediate: z.array(z.unknown()).optional() })
  .loose();

export function importArtilleryReport(text: string, file: string, run: ExportedRun): Loaded<BenchResult> {
  const json = parseJson(text, file);
  if (!json.ok) return json;
  const report = validate(artilleryReportSchema, json.value, file, 'an Artillery JSON report (artillery run --output)');
  if (!report.ok) return report;
  const { counters, firstMetricAt } = report.value.aggregate;
  const summaries = report.value.aggregate.summaries ?? report.value.aggregate.histograms ?? {};
  const ran = Object.keys(counters)
    .filter((name) => name.startsWith(`${METRIC_ROOT}.run.`))
    .map((name) => name.slice(`${METRIC_ROOT}.run.`.length));
  if (ran.length === 0)
    return {
      ok: false,
      error: `${file}: no prompt-lens metrics in this Artillery report; was it made by the scenario that \`prompt-lens bench --export artillery\` wrote?`,
    };
  if (!ran.includes(run.id))
    return {
      ok: false,
      error: `${file}: this report is from export ${ran.join(', ')}, but ${RUN_FILE} describes export ${run.id}; use the ${RUN_FILE} from the same export folder`,
    };

  let workers = 0;
  const levels: ImportedLevel[] = [];
  let partial = false;
  for (const level of runLevels(run)) {
    const counter = (metric: string) => counters[metricName(level, metric)] ?? 0;
    const histogram = (metric: string): MetricSummary | null => {
      const s = summaries[metricName(level, metric)];
      return s && s.count > 0
        ? { count: s.count, mean: s.mean, min: s.min, max: s.max, p50: s.p50, p90: s.p90, p95: s.p95, p99: s.p99 }
        : null;
    };
    const { counters: C, histograms: H } = LEVEL_METRICS;
    if (counter(C.partial) > 0) partial = true;
    const start = summaries[metricName(level, H.start)];
    const end = summaries[metricName(level, H.end)];
    if (!start || !end) continue; // a level no worker reached (a time limit)
    workers = Math.max(workers, end.count);
    const durationMs = Math.max(0, end.max - start.min);
    const seconds = durationMs / 1000;
    const perSecond = (n: number) => (seconds > 0 ? n / seconds : 0);
    const requests = counter(C.requests);
    const succeeded = counter(C.ok);
    const sloMet = counter(C.sloMet);
    const errorsByClass: Partial<Record<ErrorClass, number>> = {};
    for (const cls of ERROR_CLASSES) {
      const n = counter(`${C.errors}.${cls}`);
      if (n > 0) errorsByClass[cls] = n;
    }
    const summary: LevelSummary = aggregateSummary({
      requests,
      succeeded,
      failed: counter(C.failed),
      errorsByClass,
      ttfbMs: histogram(H.ttfb),
      ttftMs: histogram(H.ttft),
      tpotMs: histogram(H.tpot),
      itlMs: histogram(H.itl),
      e2eMs: histogram(H.e2e),
      outputTokensPerSecond: histogram(H.outputTokensPerSecond),
      aggregateOutputTokensPerSecond: perSecond(counter(C.outputTokens)),
      requestsPerSecond: perSecond(succeeded),
      goodput: perSecond(sloMet),
      sloShare: requests > 0 ? sloMet / requests : 0,
    });
    levels.push({
      cache: level.cache,
      ...(level.concurrency !== undefined ? { concurrency: level.concurrency } : {}),
      ...(level.ratePerSecond !== undefined ? { ratePerSecond: level.ratePerSecond } : {}),
      durationMs,
      warmupErrors: counter(C.warmupErrors),
      summary,
    });
  }
  const { name, kind, baseUrl, model, target } = run.endpoint;
  return {
    ok: true,
    value: importedResult({
      source: {
        tool: 'artillery',
        file: baseName(file),
        percentiles:
          "Artillery's histogram summaries (DDSketch, about 1% relative error); counts and the SLO share are exact",
        notes: [
          `${workers} Artillery worker${workers === 1 ? '' : 's'} (each runs every level: the load on a level is ${workers} × its concurrency or rate)`,
          `measured by prompt-lens' client code in Artillery's processor (export ${run.id})`,
          'error messages are not carried by Artillery metrics: see the workers’ log for them',
        ],
      },
      startedAt: firstMetricAt ? new Date(firstMetricAt).toISOString() : run.createdAt,
      endpoint: { name, kind, baseUrl, model, ...(target ? { target } : {}) },
      options: {
        requests: run.requests,
        warmup: run.warmup,
        maxTokens: run.maxTokens,
        timeoutMs: run.timeoutMs,
        ...(run.maxDurationMs !== undefined ? { maxDurationMs: run.maxDurationMs } : {}),
      },
      slo: run.slo,
      levels,
      ...(run.prediction ? { prediction: run.prediction } : {}),
      ...(partial ? { partial: 'time-limit' as const } : {}),
    }),
  };
}
