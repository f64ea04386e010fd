import type { EndpointConfig } from '../bench/endpoints';
import type { RequestRecord } from '../bench/result';
import { runBenchmark } from '../bench/runner';
import type { FetchLike } from '../bench/transport';
import type { ChatMessage } from '../prompt/types';
import { median } from './fit';
import { promptPrefix } from './prefixes';
import type { LengthRecord } from './profileFile';

export interface CalibrationRun {
  endpoint: EndpointConfig;
  apiKey?: string;
  messages: ChatMessage[];
  /** Shares of the prompt to measure, each in (0, 1]. */
  fractions: readonly number[];
  /** Another prompt measured alongside and left out of the fit, to check the fit's prediction on it. */
  check?: ChatMessage[];
  /** Measured cold requests per length. */
  requests: number;
  maxTokens: number;
  timeoutMs: number;
  /** Local input tokens of a prefix (the profile's local tokenizer, with chat overhead). */
  countLocal: (messages: ChatMessage[]) => number;
  /** Output-token counter for streams without usage. */
  countTokens: (text: string) => number;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number; lastTtftMs?: number }) => void;
  fetch?: FetchLike;
  /** The clock requests are timed on (performance.now by default). */
  now?: () => number;
}

export interface CalibrationMeasurement {
  lengths: LengthRecord[];
  /** The check prompt's requests (its `fraction` is 1), when there was one. */
  check?: LengthRecord;
  /** TPOT of every fitted request with two or more output tokens. */
  tpotMs: number[];
  /** One message per error class seen, to say why requests failed. */
  errors: string[];
  cancelled: boolean;
}

/**
 * Measures cold TTFT at each share of the prompt (and of the check prompt), one request at a time.
 * The lengths take turns (round r sends every length once) rather than running one after another,
 * so a change of load on the endpoint during the run falls on all lengths alike instead of bending
 * the fit, or the check. Every request carries a fresh nonce first, so no prefix cache serves any
 * of it; one unmeasured request at the longest length first opens the connection and warms the server.
 */
export async function measureCalibration(run: CalibrationRun): Promise<CalibrationMeasurement> {
  const prompts = run.fractions.map((fraction) => ({ fraction, messages: promptPrefix(run.messages, fraction) }));
  if (run.check) prompts.push({ fraction: 1, messages: run.check });
  const records = prompts.map(() => [] as RequestRecord[]);
  const one = async (messages: ChatMessage[]): Promise<RequestRecord | undefined> => {
    const result = await runBenchmark({
      endpoint: run.endpoint,
      ...(run.apiKey ? { apiKey: run.apiKey } : {}),
      messages,
      maxTokens: run.maxTokens,
      requests: 1,
      warmup: 0,
      concurrency: [1],
      cache: 'cold',
      timeoutMs: run.timeoutMs,
      countTokens: run.countTokens,
      ...(run.signal ? { signal: run.signal } : {}),
      ...(run.fetch ? { fetch: run.fetch } : {}),
      ...(run.now ? { now: run.now } : {}),
    });
    return result.modes[0]?.levels[0]?.requests[0];
  };
  const total = prompts.length * run.requests;
  await one(promptPrefix(run.messages, Math.max(...run.fractions)));
  let done = 0;
  for (let round = 0; round < run.requests && !run.signal?.aborted; round++) {
    for (const [i, prompt] of prompts.entries()) {
      if (run.signal?.aborted) break;
      const record = await one(prompt.messages);
      if (!record || record.error?.class === 'cancelled') continue;
      records[i]!.push(record);
      run.onProgress?.({ done: ++done, total, lastTtftMs: record.ttftMs });
    }
  }
  const measured = prompts.map((p, i) => lengthRecord(p.fraction, run.countLocal(p.messages), records[i]!));
  const fitted = records.slice(0, run.fractions.length).flat();
  const errors = new Map<string, string>();
  for (const r of records.flat()) if (r.error && !errors.has(r.error.class)) errors.set(r.error.class, r.error.message);
  return {
    lengths: measured.slice(0, run.fractions.length),
    ...(run.check ? { check: measured[run.fractions.length]! } : {}),
    tpotMs: fitted.flatMap((r) => (r.ok && r.tpotMs !== undefined ? [r.tpotMs] : [])),
    errors: [...errors.values()],
    cancelled: run.signal?.aborted ?? false,
  };
}

function lengthRecord(fraction: number, localTokens: number, records: readonly RequestRecord[]): LengthRecord {
  const ok = records.filter((r) => r.ok && r.ttftMs !== undefined);
  const reported = ok.flatMap((r) => (r.inputTokens !== undefined ? [r.inputTokens] : []));
  return {
    fraction,
    localTokens,
    endpointTokens: ok.length > 0 && reported.length === ok.length ? median(reported) : undefined,
    ttftMs: ok.map((r) => r.ttftMs!),
    requests: records.length,
    failed: records.length - ok.length,
  };
}
