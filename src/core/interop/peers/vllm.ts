// vLLM's serving benchmark (`vllm bench serve`, vllm/benchmarks/serve.py): the prompt as its
// `--dataset-name custom` JSONL, and its `--save-result` JSON back as a result.
import { z } from 'zod';
import type { BenchResult, CacheMode, MetricSummary, RequestRecord } from '../../bench/result';
import { DEFAULT_SLO } from '../../bench/stats';
import { renderChat } from '../../chat/render';
import { chatTemplateForModel, chatTemplates } from '../../chat/templates';
import { aggregateSummary, baseName, parseJsonLines, validate, type ImportedLevel, type Loaded } from '../imported';
import { runLevels, type ExportedRun } from '../run';
import {
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

/** `--metadata` keys the printed commands add, so the import knows the level's cache state and SLO. */
const META = {
  run: 'prompt_lens_run',
  cache: 'prompt_lens_cache',
  ttft: 'prompt_lens_slo_ttft_ms',
  tpot: 'prompt_lens_slo_tpot_ms',
} as const;

/**
 * One JSONL file and one command per level. vLLM's custom dataset is one prompt string per line:
 * a single user message goes to /v1/chat/completions as it is; an openai-completions endpoint gets
 * the same joined text this client sends; several chat messages are rendered with the model's chat
 * template (from data/chat-templates.json) and sent to /v1/completions, since the dataset cannot
 * carry roles.
 */
export function vllmExport(run: ExportedRun, nonce: () => string): Loaded<PeerExport> {
  const { endpoint } = run;
  const api = openAiEndpoint(run, "vLLM's benchmark");
  if (!api.ok) return api;
  const single = run.messages.length === 1 && run.messages[0]!.role === 'user';
  const template =
    chatTemplateForModel(endpoint.model) ??
    (endpoint.target ? chatTemplateForModel(endpoint.target.split('@')[0]!) : undefined);
  const mode: 'chat' | 'completions' | 'rendered' =
    api.value === 'completions' ? 'completions' : single ? 'chat' : 'rendered';
  if (mode === 'rendered' && !template)
    return {
      ok: false,
      error:
        `vLLM's custom dataset holds one prompt string per line, so a prompt with ${run.messages.length} messages (${run.messages.map((m) => m.role).join(', ')}) ` +
        `must be rendered with its chat template, and none is known for model ${endpoint.model}; known: ${chatTemplates()
          .map((t) => t.models[0])
          .join(', ')}`,
    };
  const promptOf = (messages: ExportedRun['messages']): string =>
    mode === 'chat'
      ? messages[0]!.content
      : mode === 'completions'
        ? messages.map((m) => m.content).join('\n\n')
        : renderChat(template!, messages).text;

  const files: PeerExport['files'] = [];
  const commands: string[] = [];
  for (const level of runLevels(run)) {
    const { messages, warmups } = levelRequests(run, level, nonce);
    // vLLM's warm-ups resend its first prompt: right for a warm level, a cache hit for a cold one.
    const measured = level.cache === 'cold' ? messages.slice(warmups) : messages;
    const name = levelFile('vllm', level, 'jsonl');
    files.push({ name, text: jsonLines(measured.map((m) => ({ prompt: promptOf(m) }))) });
    const args = [
      'vllm bench serve',
      `--backend ${mode === 'chat' ? 'openai-chat' : 'openai'}`,
      `--base-url ${sh(serverRoot(endpoint.baseUrl))}`,
      `--endpoint ${mode === 'chat' ? '/v1/chat/completions' : '/v1/completions'}`,
      `--model ${sh(endpoint.model)}`,
      `--dataset-name custom --dataset-path ${sh(name)} --skip-chat-template --disable-shuffle --no-oversample`,
      `--num-prompts ${run.requests} --custom-output-len ${run.maxTokens} --temperature 0`,
      level.concurrency !== undefined
        ? `--max-concurrency ${level.concurrency} --request-rate inf`
        : `--request-rate ${level.ratePerSecond}`,
      level.cache === 'warm' ? `--num-warmups ${Math.max(warmups, 1)}` : '--num-warmups 0',
      ...(mode === 'rendered' ? [`--extra-body ${sh(JSON.stringify({ add_special_tokens: false }))}`] : []),
      '--percentile-metrics ttft,tpot,itl,e2el --metric-percentiles 50,90,95,99',
      `--goodput ttft:${run.slo.ttftMs} tpot:${run.slo.tpotMs}`,
      `--metadata ${META.run}=${run.id} ${META.cache}=${level.cache} ${META.ttft}=${run.slo.ttftMs} ${META.tpot}=${run.slo.tpotMs}`,
      '--save-result --save-detailed --append-result --result-filename vllm-results.json',
    ];
    commands.push(args.join(' \\\n  '));
  }
  const notes = [
    'Runs append one JSON line each to vllm-results.json; import it with `prompt-lens import vllm vllm-results.json`.',
    'The key comes from OPENAI_API_KEY. Cold levels run without vLLM warm-ups (they would resend the first, measured prompt).',
  ];
  if (mode === 'rendered')
    notes.push(
      `Messages rendered with the ${template!.name} chat template and sent to /v1/completions with add_special_tokens false (the template writes the BOS).`,
    );
  if (mode === 'chat')
    notes.push(
      'vLLM sends the prompt as a text content part; the server renders the same tokens as this client’s string content.',
    );
  return { ok: true, value: { files, commands, notes } };
}

const seconds = z.number();
/** One `--save-result` object (vLLM 0.10+ `vllm bench serve`; benchmarks/benchmark_serving.py writes the same keys). */
const vllmResultSchema = z
  .object({
    date: z.string().optional(),
    backend: z.string().optional(),
    model_id: z.string(),
    request_rate: z.union([z.number(), z.literal('inf')]).optional(),
    max_concurrency: z.number().int().positive().nullish(),
    duration: seconds.positive(),
    completed: z.number().int().min(0),
    failed: z.number().int().min(0).optional(),
    total_output_tokens: z.number().optional(),
    request_throughput: z.number(),
    request_goodput: z.number().nullish(),
    output_throughput: z.number().optional(),
    ttfts: z.array(seconds).optional(),
    itls: z.array(z.array(seconds)).optional(),
    latencies: z.array(seconds).optional(),
    start_times: z.array(seconds).optional(),
    output_lens: z.array(z.number().int().min(0)).optional(),
    errors: z.array(z.string().nullable()).optional(),
  })
  .loose();
type VllmResult = z.output<typeof vllmResultSchema>;

/** `prompt-lens import vllm FILE`: one level per JSON object (a file written with --append-result holds several). */
export function importVllm(text: string, file: string, options: ImportOptions = {}): Loaded<BenchResult> {
  const lines = parseJsonLines(
    text.trim().startsWith('{') && !text.includes('\n{') ? text.replace(/\n/g, ' ') : text,
    file,
  );
  if (!lines.ok) return lines;
  const results: VllmResult[] = [];
  for (const [i, value] of lines.value.entries()) {
    const one = validate(
      vllmResultSchema,
      value,
      lines.value.length > 1 ? `${file} (result ${i + 1})` : file,
      'a vLLM --save-result JSON',
    );
    if (!one.ok) return one;
    results.push(one.value);
  }
  const meta = (r: VllmResult, key: string) => (typeof r[key] === 'string' ? (r[key] as string) : undefined);
  const first = results[0]!;
  const fileSlo =
    meta(first, META.ttft) && meta(first, META.tpot)
      ? { ttftMs: Number(meta(first, META.ttft)), tpotMs: Number(meta(first, META.tpot)) }
      : undefined;
  const slo =
    options.slo ?? options.run?.slo ?? (fileSlo && fileSlo.ttftMs > 0 && fileSlo.tpotMs > 0 ? fileSlo : DEFAULT_SLO);
  const notes = new Set<string>([
    "vLLM's TTFT ends at the first chunk with choices, even an empty (role-only) one; this client's at the first content token",
  ]);
  const levels: ImportedLevel[] = results.map((r) => {
    const cache = (meta(r, META.cache) as CacheMode | undefined) ?? 'cold';
    if (!meta(r, META.cache)) notes.add('no prompt_lens_cache metadata: levels shown as cold (cache state unknown)');
    const requests = r.ttfts && r.latencies ? perRequest(r) : undefined;
    if (!requests)
      notes.add('saved without --save-detailed: summaries are vLLM’s own (mean, median, std, its percentiles)');
    const rate = r.request_rate === undefined || r.request_rate === 'inf' ? undefined : r.request_rate;
    const concurrency = r.max_concurrency ?? (rate === undefined ? r.completed + (r.failed ?? 0) : undefined);
    if (r.max_concurrency == null && rate === undefined)
      notes.add('no --max-concurrency: every request was sent at once');
    return {
      cache,
      ...(concurrency !== undefined ? { concurrency } : { ratePerSecond: rate! }),
      durationMs: r.duration * 1000,
      ...(requests ? { requests } : { summary: aggregate(r, slo, fileSlo) }),
    };
  });
  const ids = new Set(results.map((r) => meta(r, META.run)).filter(Boolean));
  if (options.run && ids.size && !ids.has(options.run.id))
    return {
      ok: false,
      error: `${file}: made by export ${[...ids].join(', ')}, not ${options.run.id} (the run description given)`,
    };
  return {
    ok: true,
    value: peerResult(
      {
        source: {
          tool: 'vllm',
          file: baseName(file),
          percentiles: levels.every((l) => l.requests)
            ? 'recomputed from the per-request data (linear interpolation, as numpy)'
            : "vLLM's own (numpy linear interpolation) where no per-request data was saved",
          notes: [...notes],
        },
        startedAt: dateOf(first.date),
        endpoint: {
          name: 'vllm bench serve',
          kind: (first.backend ?? 'openai') === 'openai-chat' ? 'openai-chat' : 'openai-completions',
          baseUrl: 'unknown (not in the report)',
          model: first.model_id,
        },
        requests: first.completed + (first.failed ?? 0),
        slo,
        levels,
      },
      options,
    ),
  };
}

/** vLLM's per-request lists (seconds) as this client's records (milliseconds, same definitions). */
function perRequest(r: VllmResult): RequestRecord[] {
  const ttfts = r.ttfts!;
  const t0 = r.start_times?.length ? Math.min(...r.start_times) : 0;
  return ttfts.map((ttft, i) => {
    const error = r.errors?.[i] ?? '';
    const startMs = r.start_times?.[i] !== undefined ? (r.start_times[i]! - t0) * 1000 : 0;
    if (error || !(ttft > 0))
      return { startMs, ok: false, itlMs: [], error: peerError(error || 'failed (no first token)') };
    const ttftMs = ttft * 1000;
    const e2eMs = (r.latencies?.[i] ?? ttft) * 1000;
    const outputTokens = r.output_lens?.[i];
    const record: RequestRecord = { startMs, ok: true, ttftMs, e2eMs, itlMs: (r.itls?.[i] ?? []).map((s) => s * 1000) };
    if (outputTokens !== undefined) {
      record.outputTokens = outputTokens;
      record.outputTokensSource = 'usage';
      if (outputTokens > 1) record.tpotMs = (e2eMs - ttftMs) / (outputTokens - 1);
    }
    return record;
  });
}

/** A level from vLLM's summary keys; its goodput gives the SLO share only when measured against the same SLO. */
function aggregate(
  r: VllmResult,
  slo: { ttftMs: number; tpotMs: number },
  fileSlo?: { ttftMs: number; tpotMs: number },
) {
  const metric = (name: string): MetricSummary | null => {
    const mean = r[`mean_${name}_ms`];
    const median = r[`median_${name}_ms`];
    if (typeof mean !== 'number' || typeof median !== 'number') return null;
    const pick = (key: string) => (typeof r[key] === 'number' ? (r[key] as number) : undefined);
    const summary: MetricSummary = { mean, p50: median };
    const std = pick(`std_${name}_ms`);
    if (std !== undefined) summary.stdev = std;
    for (const p of [90, 95, 99] as const) {
      const v = pick(`p${p}_${name}_ms`);
      if (v !== undefined) summary[`p${p}`] = v;
    }
    if (name === 'ttft' || name === 'e2el') summary.count = r.completed;
    return summary;
  };
  const requests = r.completed + (r.failed ?? 0);
  const sameSlo = fileSlo && fileSlo.ttftMs === slo.ttftMs && fileSlo.tpotMs === slo.tpotMs;
  const good = r.request_goodput != null && sameSlo ? r.request_goodput : undefined;
  return aggregateSummary({
    requests,
    succeeded: r.completed,
    ttftMs: metric('ttft'),
    tpotMs: metric('tpot'),
    itlMs: metric('itl'),
    e2eMs: metric('e2el'),
    aggregateOutputTokensPerSecond: r.output_throughput ?? 0,
    requestsPerSecond: r.request_throughput,
    goodput: good ?? null,
    sloShare: good !== undefined && requests > 0 ? Math.min(1, (good * r.duration) / requests) : null,
  });
}

/** vLLM's `date` is local `YYYYMMDD-HHMMSS`; shown as such when it parses. */
function dateOf(date: string | undefined): string {
  const m = /^(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})$/.exec(date ?? '');
  return m ? new Date(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}`).toISOString() : new Date(0).toISOString();
}
