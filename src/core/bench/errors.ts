import type { RequestError } from './result';

const REDACTED = '[redacted]';

/** Removes every secret from text bound for a message, log or result. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length > 0) out = out.split(secret).join(REDACTED);
  // Anything that looks like a bearer credential is hidden too, e.g. a key the endpoint echoes back.
  return out.replace(/\b(Bearer\s+)[^\s"',]+/gi, `$1${REDACTED}`);
}

/** `retry-after` is seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowEpochMs: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowEpochMs);
}

/** The endpoint's own message from an error body: JSON `error.message`, `message`, `detail`, or the text. */
export function endpointMessage(body: string): string {
  const text = body.trim();
  try {
    const json = JSON.parse(text) as { error?: unknown; message?: unknown; detail?: unknown };
    const candidate =
      (typeof json.error === 'object' && json.error !== null
        ? (json.error as { message?: unknown }).message
        : json.error) ??
      json.message ??
      json.detail;
    if (typeof candidate === 'string' && candidate.length > 0) return clip(candidate);
  } catch {
    // Not JSON: fall through to the text itself.
  }
  if (/^\s*<(!doctype|html)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return title ? `an HTML page titled "${clip(title)}"` : 'an HTML page';
  }
  return clip(text.replace(/\s+/g, ' '));
}

function clip(text: string): string {
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

const STATUS_HINT: Record<number, string> = {
  401: 'unauthorized: check the API key',
  403: 'forbidden: the key lacks access',
  404: 'not found: check the base URL, path and model name',
  408: 'request timeout',
  413: 'request too large',
  422: 'request rejected',
  429: 'rate limited',
  500: 'server error',
  502: 'bad gateway',
  503: 'service unavailable',
  504: 'gateway timeout',
};

export function httpError(
  status: number,
  body: string,
  retryAfter: number | undefined,
  secrets: readonly string[],
): RequestError {
  const hint = STATUS_HINT[status] ?? (status >= 500 ? 'server error' : 'request failed');
  const said = endpointMessage(body);
  const wait = retryAfter !== undefined ? `; retry after ${Math.round(retryAfter / 1000)} s` : '';
  const message = redact(`HTTP ${status} ${hint}${said ? `: ${said}` : ''}${wait}`, secrets);
  return { class: 'http', message, status, ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}) };
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused: is the server running on that host and port?',
  ECONNRESET: 'connection reset by the server',
  ENOTFOUND: 'DNS lookup failed: unknown host',
  EAI_AGAIN: 'DNS lookup failed (temporary)',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed while sending',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no response headers in time',
  UND_ERR_BODY_TIMEOUT: 'body stalled',
};

/** Names a network failure from fetch (undici wraps the socket error as `cause`). */
export function networkErrorMessage(error: unknown, secrets: readonly string[]): string {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  for (const e of chain) {
    const nested = (e as { errors?: unknown[] }).errors?.[0];
    const code = (e as { code?: unknown }).code ?? (nested as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string') {
      if (/CERT|TLS|SSL/.test(code))
        return redact(`TLS error (${code}): the server's certificate was not accepted`, secrets);
      if (NETWORK_CODES[code]) return `${NETWORK_CODES[code]} (${code})`;
    }
  }
  const last = chain[chain.length - 1];
  return redact(last instanceof Error ? last.message : String(last), secrets);
}
