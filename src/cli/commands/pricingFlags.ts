import { z } from 'zod';
import { CACHE_TTLS, type CacheTtl } from '../../core/estimate';
import { intFlag, optionalFlag } from './flags';

/** The flags every pricing command takes: which cache TTL writes ask for, and the UTC hour calls are made. */
export const PRICING_OPTIONS = {
  'cache-ttl': { type: 'string' },
  hour: { type: 'string' },
} as const;

export const PRICING_USAGE = '[--cache-ttl 5m|1h] [--hour H (UTC, default: now)]';

const ttlFlag = z.enum(CACHE_TTLS, { error: `must be one of ${CACHE_TTLS.join(', ')}` });

/** `--hour H` is today's date at H:00 UTC; without it, now. */
export function pricingFlags(
  values: { 'cache-ttl'?: string; hour?: string },
  now: Date = new Date(),
): { cacheTtl: CacheTtl; at: Date } {
  const cacheTtl = optionalFlag('cache-ttl', values['cache-ttl'], ttlFlag) ?? '5m';
  const hour = optionalFlag('hour', values.hour, intFlag(0, 23));
  const at = new Date(now);
  if (hour !== undefined) at.setUTCHours(hour, 0, 0, 0);
  return { cacheTtl, at };
}
