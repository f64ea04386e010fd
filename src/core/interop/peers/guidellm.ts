// GuideLLM (vllm-project/guidellm): the prompt as a `json_file` data file (system_prompt + prompt
// columns) for `guidellm run`, and its benchmarks report (benchmarks.json) back as a result.
import { z } from 'zod';
import type { BenchResult, CacheMode, RequestRecord } from '../../bench/result';
import { DEFAULT_SLO } from '../../bench/stats';
import { baseName, parseJson, validate, type ImportedLevel, type Loaded } from '../imported';
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

const LABEL = { run: 'prompt_lens_run', cache: 'prompt_lens_cache' } as const;

/**
 * GuideLLM builds a chat request from a row as [system: system_prompt] + [user: prompt], so a prompt of
 * at most one system message and one user message maps exactly; anything else is refused.
 */
export function guidellmExport(run: ExportedRun, nonce: () => string): Loaded<PeerExport> {
  const { endpoint } = run;
  const api = openAiEndpoint(run, "GuideLLM's openai_http backend");
  if (!api.ok) return api;
  const roles = run.messages.map((m) => m.role).join(',');
  const chat = api.value === 'chat';
  if (chat && roles !== 'user' && roles !== 'system,user' && roles !== 'developer,user')
    return {
      ok: false,
      error: `GuideLLM's data file holds one system prompt and one user prompt per row; this prompt's messages are ${roles.replace(/,/g, ', ')}`,
    };
  const row = (messages: ExportedRun['messages']) =>
    chat
      ? {
          ...(messages.length === 2 ? { system_prompt: messages[0]!.content } : {}),
          prompt: messages[messages.length - 1]!.content,
        }
      : { prompt: messages.map((m) => m.content).join('\n\n') };
  const files: PeerExport['files'] = [];
  const commands: string[] = [];
  for (const level of runLevels(run)) {
    const { messages, warmups } = levelRequests(run, level, nonce);
    const name = levelFile('guidellm', level, 'jsonl');
    files.push({ name, text: jsonLines(messages.map(row)) });
    const backend = {
      kind: 'openai_http',
      target: serverRoot(endpoint.baseUrl),
      model: endpoint.model,
      request_format: chat ? '/v1/chat/completions' : '/v1/completions',
      max_tokens: run.maxTokens,
      extras: { body: { temperature: 0 } },
    };
    const profile = {
      kind: level.concurrency !== undefined ? 'concurrent' : 'poisson',
      ...(level.concurrency !== undefined ? { streams: [level.concurrency] } : { rate: [level.ratePerSecond] }),
      ...(warmups > 0 ? { warmup: { value: warmups, mode: 'requests' } } : {}),
    };
    commands.push(
      [
        'guidellm run',
        `--backend ${sh(JSON.stringify(backend))}`,
        `--profile ${sh(JSON.stringify(profile))}`,
        `--constraint kind=max_requests,count=${warmups + run.requests}`,
        `--data ${sh(JSON.stringify({ kind: 'json_file', path: name }))}`,
        `--label ${LABEL.run}=${run.id} --label ${LABEL.cache}=${level.cache}`,
        `--output ${sh(JSON.stringify({ kind: 'json', path: levelFile('guidellm', level, 'report.json') }))}`,
      ].join(' \\\n  '),
    );
  }
  return {
    ok: true,
    value: {
      files,
      commands,
      notes: [
        'For GuideLLM 0.7+ (`guidellm run`). Each command writes one report; import them together: `prompt-lens import guidellm guidellm-*.report.json`.',
        'Warm-up requests (the built-in client’s count) are GuideLLM warm-up, excluded from its statistics; the key goes in the backend’s api_key.',
      ],
    },
  };
}

const timings = z
  .object({
    request_start: z.number().nullish(),
    first_token_iteration: z.number().nullish(),
    last_token_iteration: z.number().nullish(),
    request_end: z.number().nullish(),
  })
  .loose();
const requestStats = z
  .object({
    info: z.object({ timings, error: z.string().nullish() }).loose(),
    output_tokens: z.number().int().nullish(),
    time_to_first_token_ms: z.number().nullish(),
    request_latency: z.number().nullish(),
  })
  .loose();
const strategy = z
  .object({
    type_: z.string(),
    streams: z.number().int().positive().optional(),
    rate: z.number().positive().optional(),
    max_concurrency: z.number().int().positive().nullish(),
  })
  .loose();
const benchmark = z
  .object({
    config: z.object({ strategy }).loose(),
    scheduler_metrics: z.object({ measure_start_time: z.number(), measure_end_time: z.number() }).loose(),
    requests: z
      .object({
        successful: z.array(requestStats).default([]),
        errored: z.array(requestStats).default([]),
        incomplete: z.array(requestStats).default([]),
      })
      .loose(),
    metrics: z
      .object({
        request_totals: z.object({ successful: z.number(), errored: z.number(), incomplete: z.number() }).loose(),
      })
      .loose(),
  })
  .loose();
/** GuideLLM's benchmarks report, schema version 1 (GuideLLM 0.5–0.6) or 2 (0.7+). */
const reportSchema = z
  .object({
    metadata: z
      .object({ version: z.union([z.literal(1), z.literal(2)]), guidellm_version: z.string().optional() })
      .loose(),
    benchmarks: z.array(benchmark).min(1, 'holds no benchmarks'),
    config: z.unknown().optional(),
  })
  .loose();
type GuideBenchmark = z.output<typeof benchmark>;

/** `prompt-lens import guidellm REPORT.json…`: one level per benchmark, from its per-request data. */
export function importGuidellm(
  files: readonly { text: string; file: string }[],
  options: ImportOptions = {},
): Loaded<BenchResult> {
  const slo = options.slo ?? options.run?.slo ?? DEFAULT_SLO;
  const levels: ImportedLevel[] = [];
  const notes = new Set<string>([
    "GuideLLM's time_per_output_token counts the first token; TPOT here is (last token − first token) / (tokens − 1), its inter_token_latency",
    'GuideLLM keeps no per-chunk times: ITL is not available',
  ]);
  let version: string | undefined;
  let started = Number.POSITIVE_INFINITY;
  let model: string | undefined;
  for (const { text, file } of files) {
    const json = parseJson(text, file);
    if (!json.ok) return json;
    const report = validate(reportSchema, json.value, file, 'a GuideLLM benchmarks report (benchmarks.json)');
    if (!report.ok) return report;
    version ??= report.value.metadata.guidellm_version;
    const config = report.value.config as
      { metadata?: { labels?: Record<string, string> }; spec?: { backend?: { model?: string } } } | undefined;
    const labels = config?.metadata?.labels ?? {};
    model ??= config?.spec?.backend?.model;
    if (options.run && labels[LABEL.run] && labels[LABEL.run] !== options.run.id)
      return {
        ok: false,
        error: `${file}: made by export ${labels[LABEL.run]}, not ${options.run.id} (the run description given)`,
      };
    const dataPath = JSON.stringify(config ?? {}).match(/guidellm-(?:cold|warm)-[^"]*\.jsonl/)?.[0];
    const cache: CacheMode = (labels[LABEL.cache] as CacheMode | undefined) ?? cacheFromName(dataPath) ?? 'cold';
    if (!labels[LABEL.cache] && !dataPath)
      notes.add(`${baseName(file)}: no prompt_lens_cache label: shown as cold (cache state unknown)`);
    for (const b of report.value.benchmarks) {
      started = Math.min(started, b.scheduler_metrics.measure_start_time);
      levels.push(level(b, cache, notes));
    }
  }
  return {
    ok: true,
    value: peerResult(
      {
        source: {
          tool: 'guidellm',
          file: files.map((f) => baseName(f.file)).join(', '),
          ...(version ? { version } : {}),
          percentiles:
            "recomputed from GuideLLM's per-request data (linear interpolation); GuideLLM's own are nearest-rank",
          notes: [...notes],
        },
        startedAt: Number.isFinite(started) ? new Date(started * 1000).toISOString() : new Date(0).toISOString(),
        endpoint: {
          name: 'guidellm',
          kind: 'openai-chat',
          baseUrl: 'unknown (not in the report)',
          model: model ?? 'unknown',
        },
        requests: Math.max(...levels.map((l) => l.requests?.length ?? 0)),
        slo,
        levels,
      },
      options,
    ),
  };
}

function level(b: GuideBenchmark, cache: CacheMode, notes: Set<string>): ImportedLevel {
  const s = b.config.strategy;
  const totals = b.metrics.request_totals;
  const kept = b.requests.successful.length + b.requests.errored.length;
  if (kept < totals.successful + totals.errored)
    notes.add(
      `a benchmark kept ${kept} of ${totals.successful + totals.errored} requests (GuideLLM sampling): statistics are over that sample`,
    );
  const t0 = b.scheduler_metrics.measure_start_time;
  const records: RequestRecord[] = [
    ...b.requests.successful.map((r) => record(r, t0, true)),
    ...b.requests.errored.map((r) => record(r, t0, false)),
  ].sort((x, y) => x.startMs - y.startMs);
  const concurrency = s.streams ?? (s.type_ === 'synchronous' ? 1 : (s.max_concurrency ?? undefined));
  return {
    cache,
    ...(concurrency !== undefined && s.rate === undefined ? { concurrency } : { ratePerSecond: s.rate ?? 0 }),
    durationMs: (b.scheduler_metrics.measure_end_time - t0) * 1000,
    requests: records,
  };
}

function record(r: z.output<typeof requestStats>, t0: number, ok: boolean): RequestRecord {
  const t = r.info.timings;
  const startMs = t.request_start != null ? (t.request_start - t0) * 1000 : 0;
  if (!ok || t.request_start == null || t.first_token_iteration == null)
    return { startMs, ok: false, itlMs: [], error: peerError(r.info.error ?? 'errored') };
  const ttftMs = (t.first_token_iteration - t.request_start) * 1000;
  const last = t.last_token_iteration ?? t.first_token_iteration;
  const e2eMs = (last - t.request_start) * 1000;
  const record: RequestRecord = { startMs, ok: true, ttftMs, e2eMs, itlMs: [] };
  if (r.output_tokens != null) {
    record.outputTokens = r.output_tokens;
    record.outputTokensSource = 'usage';
    if (r.output_tokens > 1) record.tpotMs = (e2eMs - ttftMs) / (r.output_tokens - 1);
  }
  return record;
}
