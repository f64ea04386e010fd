import { endpointMessage, endpointText, httpError, networkErrorMessage, redact, retryAfterMs } from './errors';
import { createFraming, type Frame } from './framing';
import type { WireFormat } from './kinds';
import { LineTooLongError } from './lineSplitter';
import type { RequestError, RequestRecord } from './result';
import { StopSwitch } from './stop';
import { socketTransport } from './socketTransport';
import { fetchTransport, type FetchLike, type StreamResponse } from './transport';

export type { FetchLike } from './transport';

/** A ready-to-send streaming request and the wire format that reads its answer. */
export interface StreamRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  wire: WireFormat;
}

export interface MeasureOptions {
  timeoutMs: number;
  /** Aborting it cancels the request: the record comes back with error class `cancelled`. */
  signal?: AbortSignal;
  /** Counts output tokens when the endpoint reports no usage. */
  countTokens: (text: string) => number;
  /** A fetch to send with (tests script one); by default the socket transport, which costs far less per chunk. */
  fetch?: FetchLike;
  /** Monotonic milliseconds; defaults to performance.now. */
  now?: () => number;
  /** Strings that must never appear in an error message (the API key). */
  secrets?: readonly string[];
}

const ERROR_BODY_LIMIT = 64 * 1024;
/**
 * Output kept per request (for counting when the endpoint reports no usage) and content chunks
 * timed: an endless stream fails at these instead of filling memory until the timeout.
 */
export const MAX_OUTPUT_CHARS = 4 * 1024 * 1024;
export const MAX_CONTENT_CHUNKS = 1_000_000;

const STREAM_TYPES: Record<WireFormat['framing'], RegExp> = {
  sse: /^text\/event-stream\b/i,
  ndjson: /^application\/(x-ndjson|jsonl|json)\b/i,
};

/**
 * Sends one streaming request and times it, in named steps: send → check the response head → read
 * the stream → classify what broke it → the record. Never throws: every failure becomes a classified
 * error. `startMs` of the result is the clock reading at send; the runner rebases it.
 */
export async function measureRequest(request: StreamRequest, options: MeasureOptions): Promise<RequestRecord> {
  const now = options.now ?? (() => performance.now());
  // Equivalent mutant: a default secret of ["Stryker was here"] redacts a string no endpoint sends.
  // Stryker disable next-line ArrayDeclaration: equivalent (above)
  const secrets = options.secrets ?? [];
  const record: RequestRecord = { startMs: now(), ok: false, itlMs: [] };
  if (options.signal?.aborted) return { ...record, error: { class: 'cancelled', message: 'cancelled before sending' } };
  const stop = new StopSwitch(options.signal, options.timeoutMs, 'timeout');
  const fail = (error: RequestError): RequestRecord => ({ ...record, ok: false, error });
  // When the request's own switch ended it (its timeout or the caller), that is the error, whatever the transport said.
  const stopped = () => (stop.reason ? stoppedError(stop.reason, options.timeoutMs, record) : undefined);
  try {
    const sent = await send(request, options, stop.signal, secrets, now);
    if ('error' in sent) return fail(stopped() ?? sent.error);
    // The request went out on an open connection: the wait starts at its write, not at this call.
    if (sent.response.sentAt !== undefined) record.startMs = sent.response.sentAt;
    const refused = await refusal(sent.response, request, secrets);
    if (refused) return fail(refused);
    const state = new StreamState(request.wire, record, secrets);
    const broke = await readStream(sent.response, request.wire, state, now);
    if (broke) return fail(classifyBreak(broke.error, sent.response, state, stopped, secrets));
    return state.result(options.countTokens, fail);
  } finally {
    stop.close();
  }
}

/** Step 1: the request goes out; a failure before any response is a connection error. */
async function send(
  request: StreamRequest,
  options: MeasureOptions,
  signal: AbortSignal,
  secrets: readonly string[],
  now: () => number,
): Promise<{ response: StreamResponse } | { error: RequestError }> {
  const transport = options.fetch ? fetchTransport(options.fetch) : socketTransport;
  try {
    // Neither transport follows a redirect: it would carry the key to wherever the server points.
    return { response: await transport(request.url, { headers: request.headers, body: request.body, signal, now }) };
  } catch (error) {
    return { error: { class: 'connection', message: networkErrorMessage(error, secrets) } };
  }
}

/** Step 2: the response head. A redirect, an HTTP error or a body that is not a stream ends the request here. */
async function refusal(
  response: StreamResponse,
  request: StreamRequest,
  secrets: readonly string[],
): Promise<RequestError | undefined> {
  if (response.status >= 300 && response.status < 400) {
    await response.body.text(0);
    const location = response.header('location');
    const where = location ? ` to ${endpointText(safeOrigin(location, request.url), secrets)}` : '';
    return {
      class: 'redirect',
      status: response.status,
      message: `HTTP ${response.status} redirect${where} not followed, so the API key is not sent to another address; use the final URL as the base URL`,
    };
  }
  // 3xx was answered above.
  if (response.status < 200 || response.status >= 400) {
    const body = await response.body.text(ERROR_BODY_LIMIT);
    return httpError(response.status, body, retryAfterMs(response.header('retry-after'), Date.now()), secrets);
  }
  const contentType = response.header('content-type') ?? '';
  if (STREAM_TYPES[request.wire.framing].test(contentType)) return undefined;
  const said = endpointText(endpointMessage(await response.body.text(ERROR_BODY_LIMIT)), secrets);
  const type = endpointText(contentType.split(';')[0] ?? '', secrets, 100) || 'no content type';
  return {
    class: 'not-event-stream',
    status: response.status,
    message: `expected a streaming response but got ${type}${said ? `: ${said}` : ''}`,
  };
}

/** Step 3: frames are timed as they arrive, until the stream says it is done or ends; what broke it, if anything. */
async function readStream(
  response: StreamResponse,
  wire: WireFormat,
  state: StreamState,
  now: () => number,
): Promise<{ error: unknown } | undefined> {
  const framing = createFraming(wire.framing);
  try {
    const endedAt = await response.body.read(now, (arrivals) => {
      for (const { at, bytes } of arrivals) {
        state.arrived(framing.push(bytes), at);
        if (state.finished) return true;
      }
      return false;
    });
    // Equivalent mutant (→ true): endedAt is undefined only once the sink saw the end; frames() then reads nothing.
    // Stryker disable next-line ConditionalExpression: equivalent (above)
    if (endedAt !== undefined) state.frames(framing.end(), endedAt);
    return undefined;
  } catch (error) {
    return { error };
  }
}

/** Step 4: what broke a stream, as an error class. */
function classifyBreak(
  error: unknown,
  response: StreamResponse,
  state: StreamState,
  stopped: () => RequestError | undefined,
  secrets: readonly string[],
): RequestError {
  if (error instanceof StreamProblem) return { ...error.problem, message: redact(error.problem.message, secrets) };
  if (error instanceof LineTooLongError) return { class: 'bad-stream', message: error.message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('Z_'))
    return {
      class: 'bad-stream',
      message: `the body is not valid ${endpointText(response.header('content-encoding') ?? '', secrets, 40)} data (${code})`,
    };
  return (
    stopped() ?? {
      class: 'connection',
      message: `stream broke after ${state.contentChunks} content chunks: ${networkErrorMessage(error, secrets)}`,
    }
  );
}

function stoppedError(reason: 'timeout' | 'cancelled', timeoutMs: number, record: RequestRecord): RequestError {
  return reason === 'timeout'
    ? {
        class: 'timeout',
        message: `no complete response within ${timeoutMs} ms${record.ttftMs === undefined ? ' (no content token yet)' : ''}`,
      }
    : { class: 'cancelled', message: 'cancelled' };
}

/** The most tokens a usage report may claim for one request; above it (or not a whole number) it is ignored. */
export const MAX_USAGE_TOKENS = 100_000_000;

function plausibleCount(value: number | undefined): number | undefined {
  // Equivalent mutant (→ false): without this test it is the same, as isSafeInteger(undefined) is false.
  // Stryker disable next-line ConditionalExpression: equivalent (above)
  if (value === undefined) return undefined;
  return Number.isSafeInteger(value) && value >= 0 && value <= MAX_USAGE_TOKENS ? value : undefined;
}

/** Finish reasons are words (`stop`, `length`, `end_turn`); anything longer is clipped. */
const FINISH_REASON_CHARS = 64;

class StreamProblem extends Error {
  constructor(readonly problem: RequestError) {
    super(problem.message);
  }
}

/** What the frames so far have said: content times, text, usage, finish. */
class StreamState {
  text = '';
  contentChunks = 0;
  finished = false;
  private lastContentAt: number | undefined;
  private usageOutput: number | undefined;
  private finish: string | undefined;

  constructor(
    private readonly wire: WireFormat,
    private readonly record: RequestRecord,
    /** Every string the endpoint supplies is redacted whole, then clipped (endpointText). */
    private readonly secrets: readonly string[],
  ) {}

  /** Frames that arrived together at `at`: the first arrival is the time to first byte. */
  arrived(frames: Frame[], at: number): void {
    this.record.ttfbMs ??= at - this.record.startMs;
    this.frames(frames, at);
  }

  frames(frames: Frame[], at: number): void {
    for (const frame of frames) {
      if (this.finished) return;
      const info = this.wire.interpret(frame);
      if (info.malformed)
        throw new StreamProblem({
          class: 'bad-stream',
          message: `unreadable stream event: ${endpointText(info.malformed, this.secrets, 160)}`,
        });
      if (info.error !== undefined)
        throw new StreamProblem({
          class: 'stream-error',
          message: `the endpoint reported an error inside the stream: ${endpointText(info.error, this.secrets)}`,
        });
      if (info.text) this.content(info.text, at);
      // Usage the endpoint reports is taken only when it is a plausible count (1e308 made TPOT 0,
      // which met every SLO): otherwise the input is left unknown and the output is counted.
      const input = plausibleCount(info.inputTokens);
      if (input !== undefined) this.record.inputTokens = input;
      const output = plausibleCount(info.outputTokens);
      if (output !== undefined) this.usageOutput = output;
      if (info.finish) this.finish = endpointText(info.finish, this.secrets, FINISH_REASON_CHARS);
      if (info.done) this.finished = true;
    }
  }

  private content(text: string, at: number): void {
    this.text += text;
    this.contentChunks++;
    if (this.text.length > MAX_OUTPUT_CHARS || this.contentChunks > MAX_CONTENT_CHUNKS) {
      throw new StreamProblem({
        class: 'bad-stream',
        message: `the stream sent more than ${MAX_OUTPUT_CHARS.toLocaleString('en-US')} characters or ${MAX_CONTENT_CHUNKS.toLocaleString('en-US')} chunks of output; stopped`,
      });
    }
    if (this.lastContentAt === undefined) this.record.ttftMs = at - this.record.startMs;
    else this.record.itlMs.push(at - this.lastContentAt);
    this.lastContentAt = at;
  }

  result(countTokens: (text: string) => number, fail: (e: RequestError) => RequestRecord): RequestRecord {
    const r = this.record;
    if (this.lastContentAt === undefined) {
      const why =
        this.usageOutput !== undefined || this.finish
          ? ' (only role, usage or finish chunks' + (this.finish ? `; finish reason ${this.finish}` : '') + ')'
          : '';
      return fail({ class: 'no-content', message: `the stream ended without any content token${why}` });
    }
    r.e2eMs = this.lastContentAt - r.startMs;
    const reported = (this.usageOutput ?? 0) > 0;
    withOutputTokens(r, reported ? this.usageOutput! : countTokens(this.text), reported ? 'usage' : 'counted');
    if (this.finish) r.finishReason = this.finish;
    r.ok = true;
    return r;
  }
}

/** Sets a timed record's output tokens and the TPOT they give: (E2E − TTFT) / (tokens − 1). */
export function withOutputTokens(r: RequestRecord, tokens: number, source: 'usage' | 'counted'): RequestRecord {
  r.outputTokens = tokens;
  r.outputTokensSource = source;
  if (tokens > 1 && r.e2eMs !== undefined && r.ttftMs !== undefined) r.tpotMs = (r.e2eMs - r.ttftMs) / (tokens - 1);
  else delete r.tpotMs;
  return r;
}

/** Only the origin of a redirect target is shown: its path or query could carry tokens. */
function safeOrigin(location: string, base: string): string {
  try {
    return new URL(location, base).origin;
  } catch {
    return 'an unreadable location';
  }
}
