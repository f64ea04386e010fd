// NVIDIA AIPerf (ai-dynamo/aiperf): the exact request bodies as a `mooncake_trace` input file
// (`payload` lines, sent verbatim), and its profile exports back as a result: the per-request
// `profile_export.jsonl` when given (recomputed here), else `profile_export_aiperf.json`'s summary.
import { z } from 'zod';
import { WIRE_FORMATS } from '../../bench/kinds';
import type { BenchResult, CacheMode, MetricSummary, RequestRecord } from '../../bench/result';
import { DEFAULT_SLO } from '../../bench/stats';
import type { ChatMessage } from '../../prompt/types';
import {
  aggregateSummary,
  baseName,
  parseJson,
  parseJsonLines,
  validate,
  type ImportedLevel,
  type Loaded,
} from '../imported';
import { runLevels, type ExportedRun } from '../run';
import {
  cacheFromName,
  openAiEndpoint,
  peerResult,
  jsonLines,
  levelFile,
  levelRequests,
  peerError,
  serverRoot,
  sh,
  type ImportOptions,
  type PeerExport,
} from './common';

export function aiperfExport(run: ExportedRun, nonce: () => string): Loaded<PeerExport> {
  const { endpoint } = run;
  const api = openAiEndpoint(run, 'AIPerf');
  if (!api.ok) return api;
  const wire = WIRE_FORMATS[endpoint.kind];
  const files: PeerExport['files'] = [];
  const commands: string[] = [];
  for (const level of runLevels(run)) {
    const { messages, warmups } = levelRequests(run, level, nonce);
    const name = levelFile('aiperf', level, 'jsonl');
    // The body this client sends, byte for byte in content: model, messages, stream, usage, temperature 0, max_tokens.
    const payload = (m: ExportedRun['messages']) => ({
      payload: wire.body({ model: endpoint.model, messages: m as ChatMessage[], maxTokens: run.maxTokens }),
    });
    files.push({ name, text: jsonLines(messages.map(payload)) });
    commands.push(
      [
        'aiperf profile',
        `--model ${sh(endpoint.model)} --url ${sh(serverRoot(endpoint.baseUrl))}`,
        `--endpoint-type ${api.value} --streaming`,
        `--input-file ${sh(name)} --custom-dataset-type mooncake_trace`,
        level.concurrency !== undefined
          ? `--concurrency ${level.concurrency}`
          : `--request-rate ${level.ratePerSecond}`,
        `--request-count ${run.requests} --warmup-request-count ${warmups}`,
        `--goodput ${sh(`time_to_first_token:${run.slo.ttftMs} inter_token_latency:${run.slo.tpotMs}`)}`,
        `--artifact-dir ${sh(levelFile('aiperf', level, 'artifacts'))}`,
      ].join(' \\\n  '),
    );
  }
  return {
    ok: true,
    value: {
      files,
      commands,
      notes: [
        "Needs an AIPerf whose mooncake_trace input takes `payload` (checked against its source's loader models); the key goes in --api-key.",
        'Import each level’s per-request export: `prompt-lens import aiperf aiperf-*.artifacts/profile_export.jsonl` (or profile_export_aiperf.json for the summary only).',
      ],
    },
  };
}

const value = z.object({ value: z.union([z.number(), z.array(z.number())]), unit: z.string() }).loose();
const recordSchema = z
  .object({
    metadata: z
      .object({
        request_start_ns: z.number(),
        benchmark_phase: z.string().optional(),
        was_cancelled: z.boolean().optional(),
      })
      .loose(),
    metrics: z.record(z.string(), value).nullish(),
    error: z
      .object({ code: z.number().nullish(), type: z.string().nullish(), message: z.string().nullish() })
      .loose()
      .nullish(),
  })
  .loose();
const stat = z
  .object({
    unit: z.string(),
    avg: z.number().nullish(),
    p50: z.number().nullish(),
    p90: z.number().nullish(),
    p95: z.number().nullish(),
    p99: z.number().nullish(),
    min: z.number().nullish(),
    max: z.number().nullish(),
    std: z.number().nullish(),
  })
  .loose();
/** profile_export_aiperf.json: a summary per metric plus the user configuration. */
const aggregateSchema = z
  .object({
    request_count: stat.optional(),
    benchmark_duration: stat.optional(),
    time_to_first_token: stat.optional(),
    request_latency: stat,
    aiperf_version: z.string().nullish(),
    start_time: z.string().nullish(),
    input_config: z.unknown().optional(),
  })
  .loose();

const toMs: Record<string, number> = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000, sec: 1000 };

/**
 * `prompt-lens import aiperf FILE…`: each file is one AIPerf run (one concurrency or rate): a
 * profile_export.jsonl (per request) or a profile_export_aiperf.json (summary). A run's level and
 * cache state come from its configuration in the summary file and the input file's name.
 */
export function importAiperf(
  files: readonly { text: string; file: string; summary?: string }[],
  options: ImportOptions = {},
): Loaded<BenchResult> {
  const slo = options.slo ?? options.run?.slo ?? DEFAULT_SLO;
  const levels: ImportedLevel[] = [];
  const notes = new Set<string>(["AIPerf's inter_token_latency is this client's TPOT; its inter_chunk_latency is ITL"]);
  let version: string | undefined;
  let started: string | undefined;
  for (const { text, file, summary } of files) {
    const isJsonl = /\.jsonl$/i.test(file);
    let config: Config = {};
    let aggregate: z.output<typeof aggregateSchema> | undefined;
    const summaryText = isJsonl ? summary : text;
    if (summaryText !== undefined) {
      const json = parseJson(summaryText, isJsonl ? `${file} (its profile_export_aiperf.json)` : file);
      if (!json.ok) return json;
      const parsed = validate(
        aggregateSchema,
        json.value,
        file,
        'an AIPerf profile export (profile_export_aiperf.json)',
      );
      if (!parsed.ok) return parsed;
      aggregate = parsed.value;
      config = configOf(aggregate.input_config);
      version ??= aggregate.aiperf_version ?? undefined;
      started ??= aggregate.start_time ?? undefined;
    }
    const cache: CacheMode = cacheFromName(config.inputFile) ?? cacheFromName(file) ?? 'cold';
    if (!cacheFromName(config.inputFile) && !cacheFromName(file))
      notes.add(`${baseName(file)}: cache state unknown: shown as cold`);
    const shape =
      config.concurrency !== undefined
        ? { concurrency: config.concurrency }
        : config.rate !== undefined
          ? { ratePerSecond: config.rate }
          : { concurrency: 1 };
    if (config.concurrency === undefined && config.rate === undefined)
      notes.add(
        `${baseName(file)}: no load setting found (give the profile_export_aiperf.json beside it): shown as c=1`,
      );
    if (isJsonl) {
      const lines = parseJsonLines(text, file);
      if (!lines.ok) return lines;
      const records: RequestRecord[] = [];
      let t0 = Number.POSITIVE_INFINITY;
      let end = 0;
      const parsed: z.output<typeof recordSchema>[] = [];
      for (const [i, line] of lines.value.entries()) {
        const r = validate(recordSchema, line, `${file} line ${i + 1}`, 'an AIPerf per-request record');
        if (!r.ok) return r;
        if (r.value.metadata.benchmark_phase && r.value.metadata.benchmark_phase !== 'profiling') continue;
        parsed.push(r.value);
        t0 = Math.min(t0, r.value.metadata.request_start_ns);
      }
      for (const r of parsed) {
        const record = toRecord(r, t0);
        records.push(record);
        end = Math.max(end, record.startMs + (record.e2eMs ?? 0));
      }
      records.sort((a, b) => a.startMs - b.startMs);
      levels.push({ cache, ...shape, durationMs: durationOf(aggregate) ?? end, requests: records });
    } else {
      notes.add(`${baseName(file)}: summary only (no profile_export.jsonl): AIPerf's percentiles, SLO share unknown`);
      levels.push({ cache, ...shape, durationMs: durationOf(aggregate) ?? 0, summary: summaryOf(aggregate!) });
    }
  }
  return {
    ok: true,
    value: peerResult(
      {
        source: {
          tool: 'aiperf',
          file: files.map((f) => baseName(f.file)).join(', '),
          ...(version ? { version } : {}),
          percentiles: levels.every((l) => l.requests)
            ? 'recomputed from the per-request records (linear interpolation)'
            : "AIPerf's own where only the summary was given",
          notes: [...notes],
        },
        startedAt: started ? new Date(started).toISOString() : new Date(0).toISOString(),
        endpoint: { name: 'aiperf', kind: 'openai-chat', baseUrl: 'unknown (not in the report)', model: 'unknown' },
        requests: Math.max(...levels.map((l) => l.requests?.length ?? l.summary?.requests ?? 0)),
        slo,
        levels,
      },
      options,
    ),
  };
}

interface Config {
  concurrency?: number;
  rate?: number;
  inputFile?: string;
}

/** The few settings read from AIPerf's saved user configuration (its shape varies between versions). */
function configOf(input: unknown): Config {
  const loadgen = (input as { loadgen?: { concurrency?: unknown; request_rate?: unknown } } | undefined)?.loadgen;
  const file = (input as { input?: { file?: unknown } } | undefined)?.input?.file;
  const out: Config = {};
  if (typeof loadgen?.concurrency === 'number' && loadgen.concurrency > 0) out.concurrency = loadgen.concurrency;
  if (typeof loadgen?.request_rate === 'number' && loadgen.request_rate > 0) out.rate = loadgen.request_rate;
  if (typeof file === 'string') out.inputFile = file;
  return out;
}

function scalar(v: z.output<typeof value> | undefined): number | undefined {
  if (!v || typeof v.value !== 'number') return undefined;
  return v.value * (toMs[v.unit] ?? 1);
}

function toRecord(r: z.output<typeof recordSchema>, t0: number): RequestRecord {
  const startMs = (r.metadata.request_start_ns - t0) / 1e6;
  if (r.error || r.metadata.was_cancelled) {
    const e = r.error;
    const error = peerError(`${e?.type ?? ''} ${e?.message ?? 'failed'}`.trim(), e?.code ?? undefined);
    return {
      startMs,
      ok: false,
      itlMs: [],
      error: r.metadata.was_cancelled ? { ...error, class: 'cancelled' } : error,
    };
  }
  const m = r.metrics ?? {};
  const ttftMs = scalar(m.time_to_first_token);
  const e2eMs = scalar(m.request_latency);
  const gaps = m.inter_chunk_latency;
  const itlMs = gaps && Array.isArray(gaps.value) ? gaps.value.map((g) => g * (toMs[gaps.unit] ?? 1)) : [];
  const outputTokens = typeof m.output_sequence_length?.value === 'number' ? m.output_sequence_length.value : undefined;
  if (ttftMs === undefined)
    return {
      startMs,
      ok: false,
      itlMs: [],
      error: { class: 'no-content', message: 'no time to first token in the record' },
    };
  const record: RequestRecord = { startMs, ok: true, ttftMs, itlMs, ...(e2eMs !== undefined ? { e2eMs } : {}) };
  if (outputTokens !== undefined) {
    record.outputTokens = outputTokens;
    record.outputTokensSource = 'usage';
    if (outputTokens > 1 && e2eMs !== undefined) record.tpotMs = (e2eMs - ttftMs) / (outputTokens - 1);
  }
  return record;
}

function durationOf(aggregate: z.output<typeof aggregateSchema> | undefined): number | undefined {
  const d = aggregate?.benchmark_duration;
  return d?.avg != null ? d.avg * (toMs[d.unit] ?? 1) : undefined;
}

function summaryOf(a: z.output<typeof aggregateSchema>) {
  const metric = (s: z.output<typeof stat> | undefined): MetricSummary | null => {
    if (!s || s.avg == null || s.p50 == null) return null;
    const k = toMs[s.unit] ?? 1;
    const out: MetricSummary = { mean: s.avg * k, p50: s.p50 * k };
    for (const key of ['p90', 'p95', 'p99', 'min', 'max'] as const) if (s[key] != null) out[key] = s[key]! * k;
    if (s.std != null) out.stdev = s.std * k;
    return out;
  };
  const extra = a as Record<string, z.output<typeof stat> | undefined>;
  const requests = Math.round(a.request_count?.avg ?? 0);
  const errors = Math.round(extra.error_request_count?.avg ?? 0);
  return aggregateSummary({
    requests: requests + errors,
    succeeded: requests,
    ttftMs: metric(a.time_to_first_token),
    tpotMs: metric(extra.inter_token_latency),
    itlMs: metric(extra.inter_chunk_latency),
    e2eMs: metric(a.request_latency),
    aggregateOutputTokensPerSecond: extra.output_token_throughput?.avg ?? 0,
    requestsPerSecond: extra.request_throughput?.avg ?? 0,
  });
}
