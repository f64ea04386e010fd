import { z } from 'zod';
import type { ParseError, SourceRange } from './types';
import { nodeRange, schemaErrors, type YamlResult } from './yaml';

const record = z.record(z.string(), z.unknown());

/** Prompty front matter: only the fields that change what the model sees are read. */
const PromptyFrontMatter = z
  .object({
    model: z
      .union([
        z.string(),
        z
          .object({
            id: z.string().optional(),
            configuration: z
              .object({
                model: z.string().optional(),
                azure_deployment: z.string().optional(),
                name: z.string().optional(),
              })
              .loose()
              .optional(),
          })
          .loose(),
      ])
      .optional(),
    sample: z.union([record, z.string()]).optional(),
    // Prompty 1 writes inputs as a map, Prompty 2 as a list of properties with a `name`.
    inputs: z.union([z.record(z.string(), z.unknown()), z.array(z.object({ name: z.string() }).loose())]).optional(),
  })
  .loose();

/** The value an input declares for trying the prompt out: `sample`, else `example` (Prompty 2), else `default`. */
function inputValue(input: unknown): unknown {
  if (input === null || typeof input !== 'object') return undefined;
  const { sample, example, default: fallback } = input as { sample?: unknown; example?: unknown; default?: unknown };
  return sample ?? example ?? fallback;
}

export interface ReadSettings {
  model?: string;
  sample?: Record<string, unknown>;
  errors: ParseError[];
}

/** Reads Prompty (and `.prompt.md`) front matter; wrong shapes become errors naming the field, at its node. */
export function readPromptySettings(yaml: YamlResult, range: SourceRange): ReadSettings {
  const value = yaml.value;
  if (value === undefined || value === null) return { errors: [] };
  const parsed = PromptyFrontMatter.safeParse(value);
  if (!parsed.success)
    return {
      errors: schemaErrors(parsed.error, 'front matter', (path) => nodeRange(yaml.doc, path, range.start) ?? range),
    };
  const fm = parsed.data;
  const model =
    typeof fm.model === 'string'
      ? fm.model
      : (fm.model?.configuration?.model ??
        fm.model?.configuration?.azure_deployment ??
        fm.model?.configuration?.name ??
        fm.model?.id);
  const errors: ParseError[] = [];
  let sample: Record<string, unknown> | undefined = typeof fm.sample === 'object' ? fm.sample : undefined;
  if (typeof fm.sample === 'string') {
    errors.push({
      message: `front matter.sample: file reference ${JSON.stringify(fm.sample)} is not read; its variables stay unfilled`,
      range,
      severity: 'warning',
    });
  }
  // Inputs' own values fill what `sample` leaves open.
  const inputs = Array.isArray(fm.inputs)
    ? fm.inputs.map((input) => [input.name, input] as const)
    : Object.entries(fm.inputs ?? {});
  // One copy, filled in place (a copy per input was quadratic); defined, not assigned, so an
  // input named `__proto__` is a key like any other.
  let filled: Record<string, unknown> | undefined;
  for (const [name, input] of inputs) {
    const value = inputValue(input);
    if (sample?.[name] !== undefined || value === undefined) continue;
    sample = filled ??= { ...sample };
    Object.defineProperty(filled, name, { value, enumerable: true, writable: true, configurable: true });
  }
  return { ...(model ? { model } : {}), ...(sample ? { sample } : {}), errors };
}
