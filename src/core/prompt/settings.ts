import { z } from 'zod';
import type { ParseError, SourceRange } from './types';
import { nodeRange, schemaErrors, type YamlResult } from './yaml';

const record = z.record(z.string(), z.unknown());

/** Prompty front matter: only the fields that change what the model sees are read. */
const PromptyFrontMatter = z.object({
  model: z
    .union([
      z.string(),
      z.object({
        id: z.string().optional(),
        configuration: z.object({ model: z.string().optional(), azure_deployment: z.string().optional(), name: z.string().optional() }).loose().optional(),
      }).loose(),
    ])
    .optional(),
  sample: z.union([record, z.string()]).optional(),
  inputs: z.record(z.string(), z.union([z.object({ sample: z.unknown().optional(), default: z.unknown().optional() }).loose(), z.unknown()])).optional(),
}).loose();

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
  if (!parsed.success) return { errors: schemaErrors(parsed.error, 'front matter', (path) => nodeRange(yaml.doc, path, range.start) ?? range) };
  const fm = parsed.data;
  const model = typeof fm.model === 'string' ? fm.model : (fm.model?.configuration?.model ?? fm.model?.configuration?.azure_deployment ?? fm.model?.configuration?.name ?? fm.model?.id);
  const errors: ParseError[] = [];
  let sample: Record<string, unknown> | undefined = typeof fm.sample === 'object' ? fm.sample : undefined;
  if (typeof fm.sample === 'string') {
    errors.push({ message: `front matter.sample: file reference ${JSON.stringify(fm.sample)} is not read; its variables stay unfilled`, range, severity: 'warning' });
  }
  // `inputs.x.sample` / `inputs.x.default` fill what `sample` leaves open.
  for (const [name, input] of Object.entries(fm.inputs ?? {})) {
    if (sample?.[name] !== undefined || input === null || typeof input !== 'object') continue;
    const fallback = (input as { sample?: unknown; default?: unknown }).sample ?? (input as { default?: unknown }).default;
    if (fallback !== undefined) sample = { ...sample, [name]: fallback };
  }
  return { ...(model ? { model } : {}), ...(sample ? { sample } : {}), errors };
}

