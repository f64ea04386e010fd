import { z } from 'zod';
import { UsageError } from '../io';

/** Parses a flag's value with a schema; a bad value is a usage error naming the flag. */
export function flag<T>(name: string, value: string | undefined, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`--${name}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
}

export const intFlag = (min: number, max: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .int({ error: 'must be a whole number' })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` });

export const numberFlag = (minExclusive: number, max: number) =>
  z.coerce
    .number({ error: 'must be a number' })
    .refine((n) => Number.isFinite(n) && n > minExclusive, { error: `must be greater than ${minExclusive}` })
    .refine((n) => n <= max, { error: `must be at most ${max}` });
