// HTTP/1.1 responses from raw socket bytes (core/bench/http1.ts), the socket transport's parser: the
// same head and body whatever the reads' boundaries, the body's end found exactly, bytes after it kept.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  bodyReader,
  HeadReader,
  HttpProtocolError,
  MAX_HEAD_BYTES,
  type ResponseHead,
} from '../../../../src/core/bench/http1';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'latin1'));
const text = (parts: Uint8Array[]) => Buffer.concat(parts).toString('latin1');

/** Reads a whole response given as reads: its head, its body, whether the body ended, bytes after it. */
function readAll(reads: Uint8Array[]): { head?: ResponseHead; body: string; done: boolean; rest: string } {
  const heads = new HeadReader();
  let head: ResponseHead | undefined;
  let reader: ReturnType<typeof bodyReader> | undefined;
  const body: Uint8Array[] = [];
  const rest: Uint8Array[] = [];
  let done = false;
  for (const read of reads) {
    let chunk = read;
    if (!head) {
      const parsed = heads.push(chunk);
      if (!parsed) continue;
      head = parsed.head;
      reader = bodyReader(head.framing);
      chunk = parsed.rest;
      done = reader.done;
    }
    if (done) {
      rest.push(chunk);
      continue;
    }
    const framed = reader!.push(chunk);
    body.push(...framed.pieces);
    done = framed.done;
    if (framed.rest) rest.push(framed.rest);
  }
  return { ...(head ? { head } : {}), body: text(body), done, rest: text(rest) };
}

/** Cuts `all` at the given points (any order, duplicates allowed), as socket reads would. */
function cut(all: string, points: number[]): Uint8Array[] {
  const at = [...new Set(points.map((p) => p % (all.length + 1)))].sort((a, b) => a - b);
  const reads: Uint8Array[] = [];
  let from = 0;
  for (const p of [...at, all.length]) {
    reads.push(bytes(all.slice(from, p)));
    from = p;
  }
  return reads;
}

const payload = fc.string({
  unit: fc.constantFrom('a', 'é', '\r', '\n', '0', ';', ':', ' ', 'data: x'),
  maxLength: 60,
});

describe('HTTP/1.1 responses from socket reads', () => {
  it('chunked and content-length bodies read the same however the reads split them (property)', () => {
    fc.assert(
      fc.property(
        fc.array(payload, { minLength: 0, maxLength: 6 }),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 12 }),
        (pieces, chunked, withTrailers, points) => {
          const body = pieces.join('');
          const encoded = chunked
            ? pieces
                .filter((p) => p.length > 0)
                .map((p, i) => `${p.length.toString(16)}${i % 2 ? ';ext=1' : ''}\r\n${p}\r\n`)
                .join('') + `0\r\n${withTrailers ? 'x-usage: 5\r\nx-more: y\r\n' : ''}\r\n`
            : body;
          const framing = chunked
            ? 'Transfer-Encoding: chunked'
            : `Content-Length: ${Buffer.byteLength(body, 'latin1')}`;
          const response = `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n${framing}\r\n\r\n${encoded}`;
          const next = 'HTTP/1.1 204 No Content';
          const read = readAll(cut(response + next, points));
          assert.equal(read.head?.status, 200);
          assert.equal(read.head?.headers.get('content-type'), 'text/event-stream');
          assert.equal(read.body, body);
          assert.equal(read.done, true);
          // What followed the body's end is not part of it.
          assert.equal(read.rest, next);
        },
      ),
    );
  });

  it('chunk sizes: upper- and lower-case hex, leading zeros, LF or CRLF, spaces and extensions, at most 12 digits', () => {
    const body = (chunks: string) =>
      readAll([bytes(`HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`)]).body;
    assert.equal(body('A\r\n0123456789\r\nb\r\nabcdefghijk\r\n'), '0123456789abcdefghijk');
    assert.equal(body('0003\nabc\n'), 'abc');
    assert.equal(body('3 \r\nabc\r\n3;x=y\r\ndef\r\n'), 'abcdef');
    assert.equal(body('00000000000f\r\n0123456789abcde\r\n'), '0123456789abcde');
    assert.throws(() => body('000000000000f\r\n0123456789abcde\r\n'), HttpProtocolError);
    assert.throws(() => body('\r\nabc\r\n'), HttpProtocolError);
    assert.throws(() => body('3x\r\nabc\r\n'), HttpProtocolError);
  });

  it('an unfinished chunked body or a short content-length body has not ended', () => {
    assert.equal(readAll([bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n')]).done, false);
    assert.equal(readAll([bytes('HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello')]).done, false);
    const chunked = bodyReader({ kind: 'chunked' });
    chunked.push(bytes('3\r\nabc'));
    assert.equal(chunked.closeEnds(), false, 'a chunked body cut by the close is broken');
    assert.equal(bodyReader({ kind: 'length', length: 2 }).closeEnds(), false);
  });

  it('without a length or chunking the body runs to the close, and the connection is not kept', () => {
    const read = readAll([
      bytes('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: a\n\n'),
      bytes('data: b\n\n'),
    ]);
    assert.deepEqual(
      [read.head?.framing, read.head?.keepAlive, read.body, read.done],
      [{ kind: 'close' }, false, 'data: a\n\ndata: b\n\n', false],
    );
    assert.equal(bodyReader({ kind: 'close' }).closeEnds(), true);
    // A coding other than chunked last: its end is the close too.
    assert.deepEqual(readAll([bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n')]).head?.framing, {
      kind: 'close',
    });
  });

  it('informational 1xx heads are skipped; 204 and 304 have no body; bare LF line ends are read', () => {
    const read = readAll([
      bytes('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n'),
      bytes('HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n'),
    ]);
    assert.deepEqual([read.head?.status, read.body, read.done, read.rest], [204, '', true, '']);
    assert.equal(readAll([bytes('HTTP/1.1 304 Not Modified\r\n\r\n')]).done, true);
    const lf = readAll([bytes('HTTP/1.1 200 OK\nContent-Length: 2\nX-A: 1\nx-a: 2\n\nok')]);
    assert.deepEqual([lf.body, lf.done, lf.head?.headers.get('x-a')], ['ok', true, '1, 2']);
  });

  it('keep-alive: HTTP/1.1 unless "close", HTTP/1.0 only when asked; the server\'s idle timeout is read', () => {
    const head = (lines: string) => readAll([bytes(`${lines}\r\nContent-Length: 0\r\n\r\n`)]).head!;
    assert.equal(head('HTTP/1.1 200 OK').keepAlive, true);
    assert.equal(head('HTTP/1.1 200 OK\r\nConnection: Close').keepAlive, false);
    assert.equal(head('HTTP/1.0 200 OK').keepAlive, false);
    assert.equal(head('HTTP/1.0 200 OK\r\nConnection: keep-alive').keepAlive, true);
    assert.equal(head('HTTP/1.1 200 OK\r\nKeep-Alive: timeout=5, max=100').keepAliveSeconds, 5);
    assert.equal(head('HTTP/1.1 200 OK').keepAliveSeconds, undefined);
  });

  it('what is not HTTP/1.x, or breaks its framing, is a protocol error', () => {
    const broken = [
      'SSH-2.0-OpenSSH_9.6\r\n\r\n',
      'HTTP/2 200\r\n\r\n',
      'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 5, 6\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n',
      `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${'1'.repeat(5000)}`,
    ];
    for (const response of broken)
      assert.throws(() => readAll([bytes(response)]), HttpProtocolError, JSON.stringify(response.slice(0, 40)));
    // Repeated equal lengths are one length.
    assert.equal(readAll([bytes('HTTP/1.1 200 OK\r\nContent-Length: 2, 2\r\n\r\nok')]).body, 'ok');
  });

  it('a head larger than the limit is refused without waiting for its end', () => {
    const heads = new HeadReader();
    assert.equal(heads.push(bytes('HTTP/1.1 200 OK\r\n')), undefined);
    assert.throws(() => heads.push(bytes(`X-Big: ${'a'.repeat(MAX_HEAD_BYTES)}\r\n`)), HttpProtocolError);
  });
});
