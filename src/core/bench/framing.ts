import { LineSplitter } from './lineSplitter';

/** One message of a stream: an SSE event, or one NDJSON line (event name `message`). */
export interface Frame {
  event: string;
  data: string;
}

export type FramingKind = 'sse' | 'ndjson';

/** Turns body bytes into frames; `end()` flushes what the body left without a final line end. */
export interface Framing {
  push(bytes: Uint8Array): Frame[];
  end(): Frame[];
}

/**
 * WHATWG-style event-stream interpretation: `:` lines are comments, one optional space after the
 * colon is dropped, `data` lines join with LF, `event` names the event, a blank line dispatches.
 * Unlike a browser, a pending event at end of body is dispatched: real servers end that way.
 */
export class SseParser {
  private data: string[] = [];
  private eventName = '';

  line(line: string): Frame | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.eventName = value;
    // `id` and `retry` matter for reconnecting EventSources only; a benchmark never reconnects.
    return undefined;
  }

  end(): Frame | undefined {
    return this.dispatch();
  }

  private dispatch(): Frame | undefined {
    const frame = this.data.length > 0 ? { event: this.eventName || 'message', data: this.data.join('\n') } : undefined;
    this.data = [];
    this.eventName = '';
    return frame;
  }
}

export function createFraming(kind: FramingKind): Framing {
  const lines = new LineSplitter();
  if (kind === 'ndjson') {
    const frames = (all: string[]): Frame[] =>
      all.filter((l) => l.trim() !== '').map((data) => ({ event: 'message', data }));
    return { push: (bytes) => frames(lines.push(bytes)), end: () => frames(lines.end()) };
  }
  const parser = new SseParser();
  const frames = (all: string[], flush: boolean): Frame[] => {
    const out: Frame[] = [];
    for (const l of all) {
      const frame = parser.line(l);
      if (frame) out.push(frame);
    }
    const last = flush ? parser.end() : undefined;
    if (last) out.push(last);
    return out;
  };
  return { push: (bytes) => frames(lines.push(bytes), false), end: () => frames(lines.end(), true) };
}
