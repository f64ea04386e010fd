import assert from 'node:assert/strict';
import fc from 'fast-check';
import { fuzzParams } from '../../helpers/fuzz';
import { createFraming, type Frame, type FramingKind } from '../../../../src/core/bench/framing';
import { WIRE_FORMATS } from '../../../../src/core/bench/kinds';
import { LineSplitter, LineTooLongError } from '../../../../src/core/bench/lineSplitter';

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `body` split at the given byte offsets and collects every frame, including the flush at EOF. */
function framesOf(body: Uint8Array | string, kind: FramingKind = 'sse', cuts: number[] = []): Frame[] {
  const all = typeof body === 'string' ? bytes(body) : body;
  const framing = createFraming(kind);
  const out: Frame[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    out.push(...framing.push(all.slice(at, cut)));
    at = cut;
  }
  out.push(...framing.push(all.slice(at)));
  out.push(...framing.end());
  return out;
}

describe('SSE framing', () => {
  it('skips comments, handles CRLF, joins multi-line data, keeps event names', () => {
    const body = ': keep-alive\r\nevent: delta\r\ndata: one\r\ndata:two\r\n\r\n: ping\r\n\r\ndata: {"x":1}\r\n\r\n';
    assert.deepEqual(framesOf(body), [
      { event: 'delta', data: 'one\ntwo' },
      { event: 'message', data: '{"x":1}' },
    ]);
  });

  it('removes exactly one space after the colon and treats a bare field name as empty', () => {
    assert.deepEqual(framesOf('data:  two spaces\n\ndata\n\n'), [
      { event: 'message', data: ' two spaces' },
      { event: 'message', data: '' },
    ]);
  });

  it('accepts lone CR line ends, and a CR at the end of one read followed by LF in the next is one line end', () => {
    const body = 'data: a\r\rdata: b\r\n\r\n';
    assert.deepEqual(framesOf(body), [
      { event: 'message', data: 'a' },
      { event: 'message', data: 'b' },
    ]);
    // Cut between the CR and the LF of "data: a\r\n": it must not become an extra blank line.
    const split = 'data: a\r\ndata: b\r\n\r\n';
    assert.deepEqual(framesOf(split, 'sse', [split.indexOf('\n')]), [{ event: 'message', data: 'a\nb' }]);
  });

  it('dispatches a last event that has no blank line after it (end of body ends the stream)', () => {
    assert.deepEqual(framesOf('data: first\n\ndata: last'), [
      { event: 'message', data: 'first' },
      { event: 'message', data: 'last' },
    ]);
  });

  it('rebuilds UTF-8 characters split across reads', () => {
    const body = bytes('event: t\ndata: {"text":"известни 😀"}\n\n');
    const cuts = Array.from({ length: body.length - 1 }, (_, i) => i + 1); // every byte on its own
    assert.deepEqual(framesOf(body, 'sse', cuts), [{ event: 't', data: '{"text":"известни 😀"}' }]);
  });

  it('fails cleanly on a line longer than the limit instead of buffering without end', () => {
    const splitter = new LineSplitter(1000);
    assert.throws(() => splitter.push(bytes(`data: ${'a'.repeat(2000)}`)), LineTooLongError);
    const framing = createFraming('sse');
    const megabyte = bytes('a'.repeat(1 << 20));
    assert.throws(() => {
      for (let i = 0; i < 10; i++) framing.push(megabyte);
    }, /exceeded 1,048,576 characters/);
  });

  it('any split of a body into reads gives the same frames as one read (property, fixed seed)', () => {
    const field = fc.constantFrom('data: ', 'data:', 'event: ', ': ', 'id: ', 'retry: ');
    const value = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', ':', '{', '"'), maxLength: 8 });
    const ending = fc.constantFrom('\n', '\r\n', '\r');
    const line = fc.tuple(field, value, ending).map(([f, v, e]) => f + v + e);
    const body = fc.array(fc.oneof(line, ending), { maxLength: 25 }).map((parts) => bytes(parts.join('')));
    fc.assert(
      fc.property(body, fc.array(fc.nat(), { maxLength: 6 }), (b, raw) => {
        const cuts = raw.map((n) => (b.length ? n % b.length : 0));
        assert.deepEqual(framesOf(b, 'sse', cuts), framesOf(b));
      }),
      fuzzParams(20261130, 300),
    );
  });
});

describe('hostile bytes (fuzz, fixed seed)', () => {
  it('framing never throws on arbitrary bytes except for an over-long line, and every interpreter reads any frame', () => {
    const wires = Object.values(WIRE_FORMATS);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.constantFrom<FramingKind>('sse', 'ndjson'), (body, kind) => {
        for (const frame of framesOf(body, kind)) {
          for (const wire of wires) {
            const info = wire.interpret(frame);
            assert.equal(typeof info, 'object');
          }
        }
      }),
      fuzzParams(9, 300),
    );
  });

  it('interpreters classify arbitrary JSON without throwing', () => {
    const wires = Object.values(WIRE_FORMATS);
    fc.assert(
      fc.property(fc.json(), fc.constantFrom('message', 'error', 'content_block_delta'), (data, event) => {
        for (const wire of wires) wire.interpret({ event, data });
      }),
      fuzzParams(11, 300),
    );
  });
});

describe('NDJSON framing', () => {
  it('gives one frame per non-empty line, including a last line without a newline', () => {
    const body = '{"a":1}\n\n{"a":2}\r\n{"a":3}';
    assert.deepEqual(
      framesOf(body, 'ndjson', [3, 9]).map((f) => f.data),
      ['{"a":1}', '{"a":2}', '{"a":3}'],
    );
  });
});
