import { z } from 'zod';
import { UsageError } from '../io';

/** Parses a flag's value with a schema; a bad value is a usage error naming the flag. */
export function flag<T>(name: string, value: string | undefined, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new UsageError(`--${name}: ${parsed.error.issues[0]?.message ?? 'invalid value'}`);
}

/** As flag(), for a flag that may be left out. */
export function optionalFlag<T>(name: string, value: string | undefined, schema: z.ZodType<T>): T | undefined {
  return value === undefined ? undefined : flag(name, value, schema);
}

/** A flag's text as a number; an empty value is not zero. */
const numeric = (inner: z.ZodType<number, string>) =>
  z.string().trim().min(1, { error: 'must be a number' }).pipe(inner);

export const intFlag = (min: number, max: number) =>
  numeric(
    z.coerce
      .number<string>({ error: 'must be a number' })
      .int({ error: 'must be a whole number' })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` }),
  );

export const numberFlag = (minExclusive: number, max: number) =>
  numeric(
    z.coerce
      .number<string>({ error: 'must be a number' })
      .refine((n) => Number.isFinite(n) && n > minExclusive, { error: `must be greater than ${minExclusive}` })
      .refine((n) => n <= max, { error: `must be at most ${max}` }),
  );
