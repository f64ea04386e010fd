// HTTP/1.1 responses read from raw socket bytes, for the benchmark client's socket transport
// (core/bench/socketTransport.ts): the response head, then the body as chunked, content-length or
// close-delimited framing. Bytes may be split anywhere between socket reads.

/** The largest response head accepted (node's own limit is 16 KiB). */
export const MAX_HEAD_BYTES = 64 * 1024;
/** The longest chunk-size line or trailer section accepted. */
const MAX_LINE_BYTES = 4 * 1024;
const MAX_TRAILER_BYTES = 16 * 1024;

/** A response that is not HTTP/1.x, or breaks its own framing. */
export class HttpProtocolError extends Error {
  readonly code = 'HPE_INVALID';
}

export interface ResponseHead {
  status: number;
  /** Lower-case field names; a repeated field's values joined with ", ". */
  headers: ReadonlyMap<string, string>;
  /** Whether the connection may carry another request once this response's body has ended. */
  keepAlive: boolean;
  /** Seconds the server keeps an idle connection (`keep-alive: timeout=N`), when it says. */
  keepAliveSeconds?: number;
  framing: BodyFraming;
}

export type BodyFraming = { kind: 'chunked' } | { kind: 'length'; length: number } | { kind: 'close' };

/** What a body's bytes so far held: its pieces, whether it has ended, and any bytes after its end. */
export interface Framed {
  pieces: Uint8Array[];
  done: boolean;
  /** Bytes that followed the body's end (a server must not send any before the next request). */
  rest?: Uint8Array;
}

export interface BodyReader {
  readonly done: boolean;
  push(bytes: Uint8Array): Framed;
  /** The connection ended: whether that is this body's end (close-delimited) rather than a break. */
  closeEnds(): boolean;
}

/**
 * Collects a response head across reads. `push` returns the head and the bytes after it once the
 * blank line has arrived; informational 1xx heads (100 Continue, 103 Early Hints) are skipped.
 */
export class HeadReader {
  private pending: Uint8Array = new Uint8Array(0);

  push(bytes: Uint8Array): { head: ResponseHead; rest: Uint8Array } | undefined {
    let buffer = this.pending.length === 0 ? bytes : concat(this.pending, bytes);
    for (;;) {
      const end = headEnd(buffer);
      if (end === -1) {
        if (buffer.length > MAX_HEAD_BYTES) throw new HttpProtocolError('the response head is larger than 64 KiB');
        this.pending = buffer;
        return undefined;
      }
      const head = parseHead(Buffer.from(buffer.buffer, buffer.byteOffset, end).toString('latin1'));
      buffer = buffer.subarray(end);
      if (head.status >= 100 && head.status < 200 && head.status !== 101) continue;
      this.pending = new Uint8Array(0);
      return { head, rest: buffer };
    }
  }
}

/** Index just past the blank line ending a head (CRLF or bare LF line ends), or -1. */
function headEnd(buffer: Uint8Array): number {
  for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) {
    if (buffer[i + 1] === 10) return i + 2;
    if (buffer[i + 1] === 13 && buffer[i + 2] === 10) return i + 3;
  }
  return -1;
}

function parseHead(text: string): ResponseHead {
  const lines = text.split(/\r?\n/);
  const status = /^HTTP\/1\.([01]) (\d{3})(?: .*)?$/.exec(lines[0] ?? '');
  if (!status) throw new HttpProtocolError('the server did not answer with HTTP/1.x');
  const headers = new Map<string, string>();
  for (const line of lines.slice(1)) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new HttpProtocolError('the response has an unreadable header line');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const seen = headers.get(name);
    headers.set(name, seen === undefined ? value : `${seen}, ${value}`);
  }
  const code = Number(status[2]);
  const tokens = (name: string) =>
    (headers.get(name) ?? '')
      .toLowerCase()
      .split(',')
      .map((t) => t.trim())
      .filter(Boolean);
  const connection = tokens('connection');
  const keepAlive = status[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
  const timeout = /(?:^|[,\s])timeout=(\d+)/i.exec(headers.get('keep-alive') ?? '');
  return {
    status: code,
    headers,
    ...framed(code, headers, tokens('transfer-encoding'), keepAlive),
    ...(timeout ? { keepAliveSeconds: Number(timeout[1]) } : {}),
  };
}

function framed(
  status: number,
  headers: ReadonlyMap<string, string>,
  codings: string[],
  keepAlive: boolean,
): Pick<ResponseHead, 'framing' | 'keepAlive'> {
  if (status === 204 || status === 304) return { framing: { kind: 'length', length: 0 }, keepAlive };
  if (codings.length > 0) {
    // Only chunked as the last coding has an end the client can find; anything else runs to the close.
    return codings[codings.length - 1] === 'chunked'
      ? { framing: { kind: 'chunked' }, keepAlive }
      : { framing: { kind: 'close' }, keepAlive: false };
  }
  const length = headers.get('content-length');
  if (length === undefined) return { framing: { kind: 'close' }, keepAlive: false };
  const values = new Set(length.split(',').map((v) => v.trim()));
  const [only] = values;
  if (values.size !== 1 || !/^\d{1,15}$/.test(only!))
    throw new HttpProtocolError('the response has an unreadable content-length');
  return { framing: { kind: 'length', length: Number(only) }, keepAlive };
}

/** The reader for a head's body framing. */
export function bodyReader(framing: BodyFraming): BodyReader {
  if (framing.kind === 'chunked') return new ChunkedBody();
  if (framing.kind === 'length') return new LengthBody(framing.length);
  return {
    done: false,
    push: (bytes) => ({ pieces: bytes.length > 0 ? [bytes] : [], done: false }),
    closeEnds: () => true,
  };
}

class LengthBody implements BodyReader {
  constructor(private left: number) {}

  get done(): boolean {
    return this.left === 0;
  }

  push(bytes: Uint8Array): Framed {
    const take = Math.min(this.left, bytes.length);
    this.left -= take;
    const pieces = take > 0 ? [bytes.subarray(0, take)] : [];
    return { pieces, done: this.left === 0, ...(take < bytes.length ? { rest: bytes.subarray(take) } : {}) };
  }

  closeEnds(): boolean {
    return this.left === 0;
  }
}

/** A chunked body: size lines (extensions ignored), data, CRLF, … then a zero size and trailers. */
class ChunkedBody implements BodyReader {
  private state: 'size' | 'data' | 'data-end' | 'trailer' | 'done' = 'size';
  private line = '';
  private left = 0;
  private trailerBytes = 0;

  get done(): boolean {
    return this.state === 'done';
  }

  push(bytes: Uint8Array): Framed {
    const pieces: Uint8Array[] = [];
    let i = 0;
    while (i < bytes.length && this.state !== 'done') {
      if (this.state === 'data') {
        const take = Math.min(this.left, bytes.length - i);
        pieces.push(bytes.subarray(i, i + take));
        i += take;
        this.left -= take;
        if (this.left === 0) this.state = 'data-end';
        continue;
      }
      if (this.state === 'data-end') {
        const byte = bytes[i++];
        if (byte === 13) continue;
        if (byte !== 10) throw new HttpProtocolError('a chunk of the response is longer than its size');
        this.state = 'size';
        continue;
      }
      const newline = bytes.indexOf(10, i);
      // The usual size line, whole in this read: read from the bytes, without strings (a token chunk's
      // size line cost 0.5 KB of garbage per read).
      const size = this.state === 'size' && this.line === '' ? hexSize(bytes, i, newline) : undefined;
      if (size !== undefined) {
        this.startChunk(size);
        i = newline + 1;
        continue;
      }
      const end = newline === -1 ? bytes.length : newline;
      this.line += Buffer.from(bytes.buffer, bytes.byteOffset + i, end - i).toString('latin1');
      if (this.state === 'trailer') this.trailerBytes += end - i;
      i = newline === -1 ? bytes.length : newline + 1;
      if (this.line.length > MAX_LINE_BYTES || this.trailerBytes > MAX_TRAILER_BYTES)
        throw new HttpProtocolError('a chunk-size line or the trailers of the response are too long');
      if (newline !== -1) this.endLine(this.line.endsWith('\r') ? this.line.slice(0, -1) : this.line);
    }
    const framed: Framed = { pieces, done: this.state === 'done' };
    if (i < bytes.length) framed.rest = bytes.subarray(i);
    return framed;
  }

  private startChunk(size: number): void {
    this.left = size;
    this.state = size === 0 ? 'trailer' : 'data';
  }

  private endLine(line: string): void {
    this.line = '';
    if (this.state === 'trailer') {
      if (line === '') this.state = 'done';
      return;
    }
    const size = (line.split(';', 1)[0] ?? '').trim();
    if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw new HttpProtocolError('the response has an unreadable chunk size');
    this.startChunk(parseInt(size, 16));
  }

  closeEnds(): boolean {
    return false;
  }
}

/**
 * A size line of 1–12 hex digits and its line end (CRLF or LF) between `from` and the LF at
 * `newline`, as a number; undefined for anything else (no LF yet, extensions, spaces, a bad size),
 * which the line-by-line reading handles.
 */
function hexSize(bytes: Uint8Array, from: number, newline: number): number | undefined {
  const end = newline > from && bytes[newline - 1] === 13 ? newline - 1 : newline;
  if (end <= from || end - from > 12) return undefined;
  let size = 0;
  for (let k = from; k < end; k++) {
    const digit = HEX_DIGITS[bytes[k]!]!;
    if (digit === -1) return undefined;
    size = size * 16 + digit;
  }
  return size;
}

/** Byte → hex digit value, -1 for the other bytes. */
const HEX_DIGITS = Int8Array.from({ length: 256 }, (_, byte) => {
  const c = String.fromCharCode(byte);
  return /[0-9a-fA-F]/.test(c) ? parseInt(c, 16) : -1;
});

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
