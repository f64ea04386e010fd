import { setMaxListeners } from 'node:events';
import type { Worker, WorkerOptions } from 'node:worker_threads';
import { measureRequest, withOutputTokens, type MeasureOptions, type StreamRequest } from './client';
import type { EndpointKind } from './endpoints';
import { WIRE_FORMATS } from './kinds';
import type { RequestRecord } from './result';

/**
 * How a stream worker is started: with a small young generation (4 MB; V8's default lets it grow to
 * 48 MB). A worker's scavenges copy what the streams started since the previous one still hold; at
 * 1,000 streams that was 2–4 MB per scavenge, which held the worker's reads (and every first token
 * arriving meanwhile) up to 30–50 ms on 2 cores. Scavenging a small young generation more often copies
 * less each time (docs/benchmark.md, "client accuracy").
 */
export const STREAM_WORKER_OPTIONS = { resourceLimits: { maxYoungGenerationSizeMb: 4 } } satisfies WorkerOptions;

/** A request as it crosses to a stream worker: plain data, the wire format named by its endpoint kind. */
export interface PooledRequest {
  id: number;
  url: string;
  headers: Record<string, string>;
  body: string;
  kind: EndpointKind;
  timeoutMs: number;
  secrets: readonly string[];
  /** The caller's abort signal, as a number shared by every request made with it; absent without one. */
  cancelGroup?: number;
}

/** A request to measure, or every request of a cancel group to stop. */
export type PoolMessage = { measure: PooledRequest } | { cancel: number };

export interface PoolReply {
  id: number;
  record: RequestRecord;
  /** The worker's performance.timeOrigin: its clock readings are rebased onto the caller's. */
  timeOrigin: number;
  /** The streamed text, when the endpoint reported no usage: the caller counts it with its tokenizer. */
  text?: string;
}

interface Lane {
  worker: Worker;
  /** Requests in flight on this worker, by id. */
  pending: Map<number, { resolve: (r: PoolReply) => void; reject: (e: Error) => void }>;
}

/**
 * Streams measured in worker threads, a share of the open streams each, so that no one event loop
 * both reads a thousand sockets and parses what they send: each worker stamps its streams' reads in
 * its own socket callbacks (see transport.ts), and the caller's loop only sends and collects.
 * Records are the same as measureRequest's; `startMs` is on the caller's clock (performance.now).
 */
export class StreamPool {
  private readonly lanes: Lane[];
  private nextId = 1;
  private closed = false;
  /**
   * One cancel group per abort signal the callers passed (a benchmark run passes one to all its requests): it is
   * listened to once here, and in a worker one AbortController serves the group's open streams: one per stream
   * made each open stream in a worker hold ~840 B more (a signal once read is 771 B; docs/benchmark.md).
   */
  private readonly groups = new WeakMap<AbortSignal, number>();
  private nextGroup = 1;

  constructor(spawn: () => Worker, size: number) {
    this.lanes = Array.from({ length: Math.max(1, size) }, () => {
      const lane: Lane = { worker: spawn(), pending: new Map() };
      lane.worker.on('message', (reply: PoolReply) => {
        lane.pending.get(reply.id)?.resolve(reply);
        lane.pending.delete(reply.id);
      });
      // A worker that fails takes its streams with it: they fail, the other workers' go on.
      lane.worker.on('error', (error) => this.fail(lane, `a stream worker failed: ${error.message}`));
      lane.worker.on('exit', (code) => this.fail(lane, `a stream worker exited with code ${code}`));
      // Idle workers do not keep the process alive; a measurement in flight does (its promise).
      lane.worker.unref();
      return lane;
    });
  }

  /**
   * measureRequest in the least busy worker, on that worker's clock (`options.now` and `fetch` do
   * not apply). Rejects only when the worker itself fails, which is a bug, not an endpoint's doing.
   */
  async measure(
    request: StreamRequest,
    options: Pick<MeasureOptions, 'timeoutMs' | 'signal' | 'countTokens' | 'secrets'>,
  ): Promise<RequestRecord> {
    if (this.closed) throw new Error('the stream pool is closed');
    // Nothing is sent then: the record is measureRequest's own, without a worker's round trip.
    if (options.signal?.aborted) return measureRequest(request, options);
    const kind = kindOf(request);
    const id = this.nextId++;
    const lane = this.lanes.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const cancelGroup = options.signal && this.groupOf(options.signal);
    try {
      const reply = await new Promise<PoolReply>((resolve, reject) => {
        if (lane.pending.size === 0) lane.worker.ref();
        lane.pending.set(id, { resolve, reject });
        const { url, headers, body } = request;
        const measure: PooledRequest = {
          id,
          url,
          headers,
          body,
          kind,
          timeoutMs: options.timeoutMs,
          secrets: options.secrets ?? [],
          ...(cancelGroup === undefined ? {} : { cancelGroup }),
        };
        lane.worker.postMessage({ measure } satisfies PoolMessage);
      });
      const record = reply.record;
      record.startMs += reply.timeOrigin - performance.timeOrigin;
      return reply.text === undefined ? record : withOutputTokens(record, options.countTokens(reply.text), 'counted');
    } finally {
      if (lane.pending.size === 0) lane.worker.unref();
    }
  }

  /** The signal's cancel group; its abort reaches every worker once (messages are ordered: after its requests). */
  private groupOf(signal: AbortSignal): number {
    let group = this.groups.get(signal);
    if (group !== undefined) return group;
    group = this.nextGroup++;
    this.groups.set(signal, group);
    const cancel = { cancel: group } satisfies PoolMessage;
    signal.addEventListener(
      'abort',
      () => {
        if (!this.closed) for (const lane of this.lanes) lane.worker.postMessage(cancel);
      },
      { once: true },
    );
    return group;
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.lanes.map((l) => l.worker.terminate()));
  }

  private fail(lane: Lane, reason: string): void {
    for (const waiting of lane.pending.values()) waiting.reject(new Error(reason));
    lane.pending.clear();
  }
}

/**
 * The worker side: runs each request it is sent with measureRequest on its own loop and posts the
 * record back. `post` is the worker's parentPort.postMessage.
 */
export function serveStreams(post: (reply: PoolReply) => void): (message: PoolMessage) => void {
  /** Each cancel group's controller and how many of its requests are open here. */
  const groups = new Map<number, { controller: AbortController; open: number }>();
  return (message) => {
    if ('cancel' in message) return void groups.get(message.cancel)?.controller.abort();
    const { id, url, headers, body, kind, timeoutMs, secrets, cancelGroup } = message.measure;
    let group = cancelGroup === undefined ? undefined : groups.get(cancelGroup);
    if (cancelGroup !== undefined && !group) {
      group = { controller: new AbortController(), open: 0 };
      // Each open stream of the group listens to it (its StopSwitch): a thousand listeners are expected, not a leak.
      setMaxListeners(0, group.controller.signal);
      groups.set(cancelGroup, group);
    }
    if (group) group.open++;
    let text: string | undefined;
    void measureRequest(
      { url, headers, body, wire: WIRE_FORMATS[kind] },
      {
        timeoutMs,
        secrets,
        ...(group ? { signal: group.controller.signal } : {}),
        // The caller's tokenizer counts it (a vocabulary is not loaded in every worker).
        countTokens: (streamed) => {
          text = streamed;
          return 0;
        },
      },
    ).then((record) => {
      // A group is only made when none is open under its number, so the one closing here is the one in the map.
      if (group && --group.open === 0) groups.delete(cancelGroup!);
      post({ id, record, timeOrigin: performance.timeOrigin, ...(text !== undefined ? { text } : {}) });
    });
  };
}

function kindOf(request: StreamRequest): EndpointKind {
  const kind = (Object.keys(WIRE_FORMATS) as EndpointKind[]).find((k) => WIRE_FORMATS[k] === request.wire);
  if (!kind) throw new Error('the stream pool reads only the built-in wire formats');
  return kind;
}
