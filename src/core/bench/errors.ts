import type { RequestError } from './result';

const REDACTED = '[redacted]';

/**
 * The forms a secret can be echoed in: as is, and base64 (standard and URL-safe) at each of the
 * three alignments it can have inside a longer base64 text (`Basic …` credentials, an encoded
 * header dump). For each alignment the characters that depend on neighbouring bytes are dropped.
 */
function secretForms(secret: string): string[] {
  const forms = [secret];
  const bytes = Buffer.from(secret, 'utf8');
  for (const shift of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString('base64');
    // The whole 3-byte groups made of the secret's bytes alone: 4 characters each.
    const core = encoded.slice(4 * Math.ceil(shift / 3), 4 * Math.floor((shift + bytes.length) / 3));
    if (core.length >= 8) forms.push(core, core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return forms;
}

/** Removes every secret (and its base64) from text bound for a message, log or result. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets)
    if (secret.length > 0) for (const form of secretForms(secret)) out = out.split(form).join(REDACTED);
  // Anything that looks like a bearer credential is hidden too, e.g. a key the endpoint echoes back.
  return out.replace(/\b(Bearer\s+)[^\s"',]+/gi, `$1${REDACTED}`);
}

/** Longest endpoint-supplied text kept in a message (an error, a finish reason): one readable line. */
export const ENDPOINT_TEXT_CHARS = 300;

/**
 * A string the endpoint supplied, made safe to keep and print: secrets redacted over the whole
 * string first (a key straddling a cut would otherwise survive in part), then line breaks and other
 * controls folded into spaces (a `\n` could forge a line of the report), then clipped.
 */
export function endpointText(text: string, secrets: readonly string[], max = ENDPOINT_TEXT_CHARS): string {
  const flat = redact(text, secrets)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `retry-after` is seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, nowEpochMs: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowEpochMs);
}

/**
 * The endpoint's own message from an error body: JSON `error.message`, `message`, `detail`, or the
 * text; whole, for endpointText to redact and then clip.
 */
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
    if (typeof candidate === 'string' && candidate.length > 0) return candidate;
  } catch {
    // Not JSON: fall through to the text itself.
  }
  if (/^\s*<(!doctype|html)/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    return title ? `an HTML page titled "${title}"` : 'an HTML page';
  }
  return text;
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
  const said = endpointText(endpointMessage(body), secrets);
  const wait = retryAfter !== undefined ? `; retry after ${Math.round(retryAfter / 1000)} s` : '';
  const message = `HTTP ${status} ${hint}${said ? `: ${said}` : ''}${wait}`;
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
  return endpointText(last instanceof Error ? last.message : String(last), secrets);
}
