import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import {
  benchMessages,
  DEFAULT_CONCURRENCY,
  DEFAULT_SLO,
  bundledStreamWorkers,
  DEFAULT_SLO_MIN_SHARE,
  endpointRequestCounter,
  messageTokenCounter,
  predictEndpoint,
  runBenchmark,
  sloVerdict,
  usageCheck,
  type BenchProgress,
  type BenchResult,
} from '../../core/bench';
import { parsePrompt } from '../../core/prompt/parse';
import { DEFAULT_TOKENIZER, getTokenizer } from '../../core/tokenize/registry';
import { DEFAULT_KEY_ENV, resolveApiKey, resolveEndpoint, ENDPOINT_OPTIONS } from '../endpointFlags';
import { EXIT, UsageError, type CliIo } from '../io';
import { MAX_FILE_OPTION, MAX_FILE_USAGE, maxFileBytesFlag, readWholePrompt } from '../promptInput';
import { loadCliTables } from '../tables';
import { withRunId } from '../../core/interop/run';
import { EXPORT_KINDS, writeExport } from './benchExport';
import { formatBenchReport } from './benchReport';
import { flag, intFlag, numberFlag, optionalFlag } from './flags';

export const BENCH_USAGE =
  'prompt-lens bench FILE (--endpoint NAME --endpoints FILE | --base-url URL --model M [--kind K]) [--concurrency 1,4,16 | --rate R] ' +
  '[--requests N] [--warmup N] [--cache cold|warm|both] [--max-tokens M] [--timeout-ms T] [--time-limit-s S] [--slo ttft=500,tpot=30[,min=90]] [--target ID [--table FILE]] [--api-key-env NAME] [--json] [--export artillery|vllm|guidellm|aiperf DIR] ' +
  MAX_FILE_USAGE;

const OPTIONS = {
  ...ENDPOINT_OPTIONS,
  concurrency: { type: 'string' },
  rate: { type: 'string' },
  requests: { type: 'string', default: '10' },
  warmup: { type: 'string', default: '1' },
  cache: { type: 'string', default: 'cold' },
  'max-tokens': { type: 'string', default: '128' },
  'timeout-ms': { type: 'string', default: '60000' },
  'time-limit-s': { type: 'string' },
  slo: { type: 'string' },
  json: { type: 'boolean', default: false },
  target: { type: 'string' },
  table: { type: 'string', multiple: true },
  export: { type: 'string' },
  ...MAX_FILE_OPTION,
} as const;

const concurrencyList = z
  .string()
  .transform((s) => s.split(',').map((p) => Number(p.trim())))
  .refine((list) => list.length > 0 && list.every((n) => Number.isInteger(n) && n >= 1 && n <= 4096), {
    error: 'must be a comma-separated list of whole numbers from 1 to 4096, e.g. 1,4,16',
  });

export const sloSpec = z.string().transform((text, ctx) => {
  const out = { ttftMs: DEFAULT_SLO.ttftMs, tpotMs: DEFAULT_SLO.tpotMs, minShare: DEFAULT_SLO_MIN_SHARE };
  for (const part of text.split(',')) {
    const [key, raw] = part.split('=').map((s) => s.trim());
    const value = Number(raw);
    if (!raw || !Number.isFinite(value) || value <= 0) {
      ctx.addIssue({
        code: 'custom',
        message: `'${part}' is not KEY=POSITIVE_NUMBER (keys: ttft, tpot in ms; min in percent)`,
      });
      return z.NEVER;
    }
    if (key === 'ttft') out.ttftMs = value;
    else if (key === 'tpot') out.tpotMs = value;
    else if (key === 'min' && value <= 100) out.minShare = value / 100;
    else {
      ctx.addIssue({
        code: 'custom',
        message: `unknown or out-of-range key in '${part}' (keys: ttft, tpot in ms; min in percent up to 100)`,
      });
      return z.NEVER;
    }
  }
  return out;
});

export async function benchCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  const exportKind =
    values.export === undefined
      ? undefined
      : flag('export', values.export, z.enum(EXPORT_KINDS, { error: `must be one of ${EXPORT_KINDS.join(', ')}` }));
  if (exportKind && positionals.length !== 2)
    throw new UsageError(
      `--export ${exportKind} needs the prompt file and a folder to write to: bench FILE … --export ${exportKind} DIR`,
    );
  if (!exportKind && positionals.length !== 1)
    throw new UsageError(`give exactly one prompt file; usage: ${BENCH_USAGE}`);
  if (values.concurrency !== undefined && values.rate !== undefined)
    throw new UsageError('--concurrency and --rate exclude each other');

  const file = positionals[0]!;
  const requests = flag('requests', values.requests, intFlag(1, 100_000));
  const warmup = flag('warmup', values.warmup, intFlag(0, 100));
  const cache = flag('cache', values.cache, z.enum(['cold', 'warm', 'both'], { error: 'must be cold, warm or both' }));
  const maxTokens = flag('max-tokens', values['max-tokens'], intFlag(1, 1_000_000));
  const timeoutMs = flag('timeout-ms', values['timeout-ms'], intFlag(1, 24 * 3600 * 1000));
  const timeLimitS = optionalFlag('time-limit-s', values['time-limit-s'], numberFlag(0, 7 * 24 * 3600));
  const concurrency =
    values.concurrency === undefined ? undefined : flag('concurrency', values.concurrency, concurrencyList);
  const rate = optionalFlag('rate', values.rate, numberFlag(0, 10_000));
  const slo = values.slo === undefined ? undefined : flag('slo', values.slo, sloSpec);

  const resolved = await resolveEndpoint(values, io, BENCH_USAGE);
  const endpoint = values.target ? { ...resolved, target: values.target } : resolved;
  // An export never holds the key: its workers read it from the environment variable named.
  const apiKey = exportKind ? undefined : resolveApiKey(values['api-key-env'], io.env);

  const prompt = benchMessages(
    parsePrompt(file, await readWholePrompt(io, file, maxFileBytesFlag(values['max-file-bytes']))),
  );
  if (!prompt.ok) throw new UsageError(`${file}: ${prompt.error}`);
  if (prompt.notSent) io.err(`prompt-lens bench: ${file}: ${prompt.notSent}\n`);

  const tokenizer = getTokenizer(DEFAULT_TOKENIZER);
  let predicted: { ttftMs: number; tpotMs: number } | undefined;
  if (endpoint.target) {
    const p = predictEndpoint(
      await loadCliTables(values.table ?? [], io),
      endpoint.target,
      messageTokenCounter(prompt.messages),
      maxTokens,
    );
    if (p.ok) predicted = { ttftMs: p.ttftMs, tpotMs: p.tpotMs };
    else io.err(`prompt-lens bench: endpoint ${endpoint.name}'s target: ${p.error}; no prediction shown\n`);
  }
  if (exportKind) {
    const run = withRunId({
      createdAt: new Date().toISOString(),
      prompt: basename(file),
      endpoint,
      messages: prompt.messages,
      maxTokens,
      requests,
      warmup,
      cache,
      ...(rate !== undefined ? { ratePerSecond: rate } : { concurrency: concurrency ?? DEFAULT_CONCURRENCY }),
      timeoutMs,
      ...(timeLimitS !== undefined ? { maxDurationMs: timeLimitS * 1000 } : {}),
      slo: slo ? { ttftMs: slo.ttftMs, tpotMs: slo.tpotMs } : DEFAULT_SLO,
      ...(predicted ? { prediction: predicted } : {}),
      apiKeyEnv: values['api-key-env'] ?? DEFAULT_KEY_ENV,
    });
    return writeExport(exportKind, positionals[1]!, run, io);
  }
  const stop = new AbortController();
  // Ctrl-C and a SIGTERM (a CI job's timeout, `kill`) both stop the run and print what it measured.
  const onInterrupt = () => stop.abort();
  process.once('SIGINT', onInterrupt);
  process.once('SIGTERM', onInterrupt);
  let result: BenchResult;
  try {
    result = await runBenchmark({
      endpoint,
      apiKey,
      messages: prompt.messages,
      maxTokens,
      requests,
      warmup,
      ...(rate !== undefined ? { ratePerSecond: rate } : { concurrency: concurrency ?? DEFAULT_CONCURRENCY }),
      cache,
      timeoutMs,
      ...(timeLimitS !== undefined ? { maxDurationMs: timeLimitS * 1000 } : {}),
      ...(slo ? { slo: { ttftMs: slo.ttftMs, tpotMs: slo.tpotMs } } : {}),
      signal: stop.signal,
      onProgress: progressPrinter(io),
      countTokens: (t) => tokenizer.count(t),
      streamWorkers: bundledStreamWorkers(__dirname),
      ...(predicted ? { predicted } : {}),
    });
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    process.removeListener('SIGTERM', onInterrupt);
  }
  const counter = endpointRequestCounter(result.endpoint);
  const usage = counter && (await usageCheck(result, prompt.messages, counter));
  if (usage) result = { ...result, usage };

  const verdict = slo ? sloVerdict(result, slo.minShare) : undefined;
  io.out(
    values.json
      ? `${JSON.stringify(verdict ? { ...result, verdict } : result, null, 2)}\n`
      : formatBenchReport(result, verdict, file),
  );
  const levels = result.modes.flatMap((m) => m.levels);
  const allFailed = levels.every((l) => l.summary.succeeded === 0);
  // A partial run has its own code, whatever it measured: a gate must never take it for a pass.
  if (result.partial) return EXIT.partial;
  return allFailed || (verdict && !verdict.pass) ? EXIT.findings : EXIT.ok;
}

/** One progress line per level step on stderr, at most twice a second, plus each level's last. */
function progressPrinter(io: CliIo): (p: BenchProgress) => void {
  let last = 0;
  return (p) => {
    const t = performance.now();
    if (p.done < p.total && t - last < 500) return;
    last = t;
    const ttft = p.lastTtftMs !== undefined ? `, last TTFT ${p.lastTtftMs.toFixed(0)} ms` : '';
    io.err(`bench ${p.cache} ${p.level}: ${p.done}/${p.total} done, ${p.failed} failed${ttft}\n`);
  };
}
