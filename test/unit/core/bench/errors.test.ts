import assert from 'node:assert/strict';
import {
  ENDPOINT_TEXT_CHARS,
  endpointMessage,
  endpointText,
  httpError,
  networkErrorMessage,
  redact,
  retryAfterMs,
} from '../../../../src/core/bench/errors';

describe('error classification helpers', () => {
  it('retry-after as seconds or as an HTTP date', () => {
    assert.equal(retryAfterMs('2.5', 0), 2500);
    assert.equal(retryAfterMs('Wed, 21 Oct 2026 07:28:10 GMT', Date.parse('Wed, 21 Oct 2026 07:28:00 GMT')), 10_000);
    assert.equal(retryAfterMs('soon', 0), undefined);
    assert.equal(retryAfterMs(null, 0), undefined);
  });

  it("finds the endpoint's own message in the usual body shapes", () => {
    assert.equal(
      endpointMessage('{"error":{"message":"model not found","type":"invalid_request_error"}}'),
      'model not found',
    );
    assert.equal(endpointMessage('{"error":"bad key"}'), 'bad key');
    assert.equal(endpointMessage('{"detail":"Not Found"}'), 'Not Found');
    assert.equal(
      endpointMessage('<html><head><title>502 Bad Gateway</title></head></html>'),
      'an HTML page titled "502 Bad Gateway"',
    );
    // Whole here; endpointText redacts and then clips it to one line.
    assert.equal(endpointMessage(`plain ${'x'.repeat(400)}`).length, 406);
    assert.equal(endpointText(endpointMessage(`plain ${'x'.repeat(400)}`), []).length, ENDPOINT_TEXT_CHARS);
  });

  it('redacts the key and any bearer credential, and names 403 and 503', () => {
    assert.equal(
      redact('key sk-abc123 and Authorization: Bearer other-token.', ['sk-abc123']),
      'key [redacted] and Authorization: Bearer [redacted]',
    );
    const e = httpError(403, '{"message":"no access for sk-abc123"}', undefined, ['sk-abc123']);
    assert.deepEqual(e, {
      class: 'http',
      status: 403,
      message: 'HTTP 403 forbidden: the key lacks access: no access for [redacted]',
    });
    assert.match(httpError(503, '', 1000, []).message, /^HTTP 503 service unavailable; retry after 1 s$/);
  });

  it('names TLS and socket failures from the error chain', () => {
    const tls = Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    assert.match(networkErrorMessage(tls, []), /^TLS error \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
    const both = Object.assign(new Error('fetch failed'), {
      cause: new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]),
    });
    assert.match(networkErrorMessage(both, []), /connection refused/);
  });
});
