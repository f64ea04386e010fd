import { ENDPOINT_KINDS, loadEndpointsFile, parseEndpoint, type EndpointConfig } from '../core/bench';
import { readInput, UsageError, type CliIo } from './io';

/** The endpoint and key flags that bench and calibrate share. */
export const ENDPOINT_OPTIONS = {
  endpoint: { type: 'string' },
  endpoints: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string' },
  kind: { type: 'string' },
  'api-key-env': { type: 'string' },
} as const;

export const ENDPOINT_USAGE = '(--endpoint NAME --endpoints FILE | --base-url URL --model M [--kind K])';

export const DEFAULT_KEY_ENV = 'PROMPT_LENS_API_KEY';

type Values = { endpoint?: string; endpoints?: string; 'base-url'?: string; model?: string; kind?: string };

export async function resolveEndpoint(values: Values, io: CliIo, usage: string): Promise<EndpointConfig> {
  if (values.endpoint !== undefined) {
    if (values['base-url'] !== undefined || values.model !== undefined || values.kind !== undefined) {
      throw new UsageError(
        '--endpoint takes its URL, model and kind from the endpoints file; drop --base-url/--model/--kind',
      );
    }
    if (values.endpoints === undefined)
      throw new UsageError('--endpoint NAME needs --endpoints FILE (a JSON array of endpoints)');
    const loaded = loadEndpointsFile((await readInput(io, values.endpoints, 'endpoints file ')).text, values.endpoints);
    if (!loaded.ok) throw new UsageError(loaded.error);
    const found = loaded.value.find((e) => e.name === values.endpoint);
    if (!found)
      throw new UsageError(
        `no endpoint named '${values.endpoint}' in ${values.endpoints} (it has: ${loaded.value.map((e) => e.name).join(', ') || 'none'})`,
      );
    return found;
  }
  if (values['base-url'] === undefined || values.model === undefined) {
    throw new UsageError(
      `name an endpoint: --endpoint NAME --endpoints FILE, or --base-url URL --model M; usage: ${usage}`,
    );
  }
  if (values.kind !== undefined && !(ENDPOINT_KINDS as readonly string[]).includes(values.kind)) {
    throw new UsageError(`--kind: must be one of ${ENDPOINT_KINDS.join(', ')}`);
  }
  const parsed = parseEndpoint({
    name: 'command line',
    baseUrl: values['base-url'],
    model: values.model,
    ...(values.kind ? { kind: values.kind } : {}),
  });
  if (!parsed.ok) throw new UsageError(parsed.error.replace(/^baseUrl:/, '--base-url:').replace(/^model:/, '--model:'));
  return parsed.value;
}

/** The key from the environment; a named variable that is unset is a usage error (its value is never shown). */
export function resolveApiKey(envName: string | undefined, env: CliIo['env']): string | undefined {
  const name = envName ?? DEFAULT_KEY_ENV;
  const key = env[name]?.trim();
  if (envName !== undefined && !key) throw new UsageError(`--api-key-env: the environment variable ${name} is not set`);
  return key || undefined;
}
