import { z } from 'zod';

export const ENDPOINT_KINDS = ['openai-chat', 'openai-completions', 'anthropic-messages', 'ollama-chat'] as const;
export type EndpointKind = (typeof ENDPOINT_KINDS)[number];

/** Header names that carry credentials: keys come from the environment or SecretStorage, never from config. */
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'api-key', 'proxy-authorization']);

/** One endpoint as the CLI's endpoints file and the `promptLens.endpoints` setting describe it. */
export const endpointConfigSchema = z.object({
  name: z.string().trim().min(1, 'must be a non-empty name'),
  kind: z.enum(ENDPOINT_KINDS).default('openai-chat'),
  baseUrl: z
    .url({ protocol: /^https?$/i, error: 'must be an http(s) URL such as http://127.0.0.1:8000/v1' })
    .refine((url) => !URL.canParse(url) || (new URL(url).username === '' && new URL(url).password === ''), {
      error:
        'must not hold a user name or password (user:pass@host): they would be echoed into results and history; the key comes from the environment or secret storage',
    })
    // `HTTPS://Host/v1` → `https://host/v1`: the transport picks TLS by the scheme.
    .transform((url) => new URL(url).href.replace(/\/+$/, '')),
  model: z.string().trim().min(1, 'must name the model the endpoint serves'),
  /** What the estimation engine should predict this endpoint as (model/hardware or provider id). */
  target: z.string().trim().min(1).optional(),
  headers: z
    .record(z.string(), z.string())
    .optional()
    .refine((h) => !h || Object.keys(h).every((name) => !SECRET_HEADERS.has(name.toLowerCase())), {
      error:
        'must not hold credentials (Authorization, x-api-key…); the key comes from the environment or secret storage',
    }),
});
export type EndpointConfig = z.output<typeof endpointConfigSchema>;

export const endpointListSchema = z.array(endpointConfigSchema).superRefine((list, ctx) => {
  const seen = new Set<string>();
  list.forEach((e, i) => {
    if (seen.has(e.name))
      ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate endpoint name '${e.name}'` });
    seen.add(e.name);
  });
});

/** `path.to.field: message` for each issue, so a user can find the bad field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

export type Loaded<T> = { ok: true; value: T } | { ok: false; error: string };

/** Parses one endpoint object (from a setting or flags), naming the bad field on failure. */
export function parseEndpoint(input: unknown): Loaded<EndpointConfig> {
  const parsed = endpointConfigSchema.safeParse(input);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, error: describeIssues(parsed.error) };
}

/** A JSON file's text parsed; the error names the file. */
export function parseJsonFile(text: string, source: string): Loaded<unknown> {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return {
      ok: false,
      error: `${source}: not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
}

/** An endpoints file: a JSON array of endpoints, or `{ "endpoints": [...] }`. */
export function loadEndpointsFile(text: string, source: string): Loaded<EndpointConfig[]> {
  const read = parseJsonFile(text, source);
  if (!read.ok) return read;
  const json = read.value;
  const list = Array.isArray(json) ? json : (json as { endpoints?: unknown } | null)?.endpoints;
  if (!Array.isArray(list))
    return { ok: false, error: `${source}: expected a JSON array of endpoints or an object with an "endpoints" array` };
  const parsed = endpointListSchema.safeParse(list);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: `${source}: ${describeIssues(parsed.error)}` };
}
