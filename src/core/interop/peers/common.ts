// What the peer-tool exports and imports share: the lines of a level's dataset (the built-in
// client's nonce rule and warm-up count), shell quoting, and the options every import takes.
import { nonceSource, withNonce } from '../../bench/benchPrompt';
import type { BenchResult, CacheMode, ErrorClass, RequestError, ResultSource, Slo } from '../../bench/result';
import type { ChatMessage } from '../../prompt/types';
import { importedResult, type ImportedLevel, type Loaded } from '../imported';
import type { ExportedRun, RunLevel } from '../run';

export interface ExportFile {
  name: string;
  text: string;
}

/** A peer tool's dataset files and the command lines that run them, one per level. */
export interface PeerExport {
  files: ExportFile[];
  commands: string[];
  notes: string[];
}

export interface ImportOptions {
  /** The run description an export wrote (prompt-lens-run.json): endpoint, SLO, prediction, cache modes. */
  run?: ExportedRun;
  /** SLO to judge per-request data against; default: the run's, then the file's, then 500/30 ms. */
  slo?: Slo;
}

/**
 * Requests the built-in client sends before measuring a level: warm-up rounds as wide as the level
 * (concurrency levels) or one at a time (rates); a warm level primes at least once.
 */
export function warmupRequests(run: ExportedRun, level: RunLevel): number {
  const rounds = Math.max(run.warmup, level.cache === 'warm' ? 1 : 0);
  const width = level.concurrency !== undefined ? Math.min(level.concurrency, run.requests) : 1;
  return rounds * width;
}

/**
 * The messages of every request of a level, warm-ups first: cold requests each get their own nonce
 * at the start of the first message (never repeated across levels), warm ones are identical.
 */
export function levelRequests(
  run: ExportedRun,
  level: RunLevel,
  nonce: () => string,
): { messages: ChatMessage[][]; warmups: number } {
  const warmups = warmupRequests(run, level);
  const total = warmups + run.requests;
  const base = run.messages as ChatMessage[];
  const messages = Array.from({ length: total }, () => (level.cache === 'cold' ? withNonce(base, nonce()) : base));
  return { messages, warmups };
}

export function runNonces(random: () => number = Math.random): () => string {
  return nonceSource(random);
}

/** Where the tool appends `/v1/...` itself: the endpoint's base URL without a trailing /v1. */
export function serverRoot(baseUrl: string): string {
  return baseUrl.replace(/\/v1\/?$/, '');
}

/** POSIX shell quoting: bare when safe, else single quotes. */
export function sh(value: string | number): string {
  const text = String(value);
  return /^[A-Za-z0-9_./:=,@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function jsonLines(values: readonly unknown[]): string {
  return values.map((v) => JSON.stringify(v)).join('\n') + '\n';
}

/** The file names a level's dataset gets, e.g. `vllm-cold-c4.jsonl`. */
export function levelFile(tool: string, level: RunLevel, ext: string): string {
  return `${tool}-${level.key.replace('.', '-')}.${ext}`;
}

/** `cold`/`warm` from a prompt-lens level file name (the peer tools keep the input path in their reports). */
export function cacheFromName(name: string | undefined): CacheMode | undefined {
  const match = /(?:^|[-_/\\])(cold|warm)[-_.]/.exec(name ?? '');
  return match ? (match[1] as CacheMode) : undefined;
}

/** A peer tool's error text as one of this client's error classes, clipped (a traceback can be long). */
export function peerError(text: string, status?: number): RequestError {
  const lines = text
    .trim()
    .split('\n')
    .filter((l) => l.trim());
  const message = (lines.at(-1) ?? 'failed').trim().slice(0, 300);
  const lower = text.toLowerCase();
  const cls: ErrorClass =
    status !== undefined && status >= 400 && status !== 499
      ? 'http'
      : /timeout|timed out/.test(lower)
        ? 'timeout'
        : status === 499 || /cancel/.test(lower)
          ? 'cancelled'
          : /never received a valid chunk|no content|empty response/.test(lower)
            ? 'no-content'
            : /bad request|too many requests|service unavailable|internal server error|not found|unauthorized|forbidden|\bhttp \d{3}\b|\bstatus \d{3}\b/.test(
                  lower,
                )
              ? 'http'
              : 'connection';
  return { class: cls, message, ...(status !== undefined && status >= 100 ? { status } : {}) };
}

/** The peer tools drive OpenAI-compatible servers only; another endpoint kind is refused by name. */
export function openAiEndpoint(run: ExportedRun, tool: string): Loaded<'chat' | 'completions'> {
  const { kind, name } = run.endpoint;
  if (kind === 'openai-chat') return { ok: true, value: 'chat' };
  if (kind === 'openai-completions') return { ok: true, value: 'completions' };
  return { ok: false, error: `${tool} speaks the OpenAI APIs; endpoint ${name} is ${kind}` };
}

/** What a peer report gave, for peerResult. */
export interface PeerReport {
  source: ResultSource;
  startedAt: string;
  /** The endpoint as far as the report tells it (its run description's replaces it). */
  endpoint: BenchResult['endpoint'];
  /** Requests per level. */
  requests: number;
  slo: Slo;
  levels: ImportedLevel[];
}

/** A peer tool's levels as a result: the endpoint, options and prediction from the run description when given. */
export function peerResult(report: PeerReport, options: ImportOptions): BenchResult {
  const run = options.run;
  const endpoint = run
    ? (({ name, kind, baseUrl, model, target }) => ({ name, kind, baseUrl, model, ...(target ? { target } : {}) }))(
        run.endpoint,
      )
    : report.endpoint;
  return importedResult({
    source: report.source,
    startedAt: report.startedAt,
    endpoint,
    options: {
      requests: report.requests,
      warmup: run?.warmup ?? 0,
      maxTokens: run?.maxTokens ?? 0,
      timeoutMs: run?.timeoutMs ?? 0,
    },
    slo: report.slo,
    levels: report.levels,
    ...(run?.prediction ? { prediction: run.prediction } : {}),
  });
}
