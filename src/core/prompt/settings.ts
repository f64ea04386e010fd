import type { Document } from 'yaml';
import { z } from 'zod';
import { declarations, functionTools, responseFormatSchema, type RequestDeclarations } from './declarations';
import type { TemplateEngine } from './templateLanguage';
import type { FrontMatterReference, ParseError, SourceRange } from './types';
import { nodeRange, schemaErrors, type YamlResult } from './yaml';

const record = z.record(z.string(), z.unknown());

/** Prompty front matter (spec §2.3): only the fields that change what the model sees are read. */
const PromptyFrontMatter = z
  .object({
    // `model: gpt-4` is shorthand for `model: { id: gpt-4 }` (spec §2.4); Prompty 1 named the
    // deployment under `configuration`.
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
            // Sent with the request as written (Prompty's OpenAI invoker): counted with the messages.
            parameters: z
              .object({
                tools: z.array(z.object({ type: z.string() }).loose()).optional(),
                response_format: responseFormatSchema.optional(),
              })
              .loose()
              .optional(),
          })
          .loose(),
      ])
      .optional(),
    sample: z.union([record, z.string()]).optional(),
    // A map (scalar values are defaults, spec §4.4) or a list of properties with a `name`.
    inputs: z.union([z.record(z.string(), z.unknown()), z.array(z.object({ name: z.string() }).loose())]).optional(),
    // `template: mustache`, or `template: { format: { kind: mustache } }` (spec §2.8).
    template: z
      .union([
        z.string(),
        z.object({ format: z.union([z.string(), z.object({ kind: z.string() }).loose()]).optional() }).loose(),
      ])
      .optional(),
  })
  .loose();

/** An input's value for trying the prompt: `sample`, else `example`, else `default`; a scalar is its own default. */
function inputValue(input: unknown): unknown {
  if (input === null || typeof input !== 'object') return input ?? undefined;
  if (Array.isArray(input)) return input;
  const { sample, example, default: fallback } = input as { sample?: unknown; example?: unknown; default?: unknown };
  return sample ?? example ?? fallback;
}

const ENGINES: Record<string, TemplateEngine> = { jinja2: 'jinja2', jinja: 'jinja2', mustache: 'mustache' };

export interface ReadSettings {
  model?: string;
  request?: RequestDeclarations;
  sample?: Record<string, unknown>;
  engine: TemplateEngine;
  references: FrontMatterReference[];
  errors: ParseError[];
}

/** `${env:NAME}`, `${env:NAME:default}`, `${file:path}`: a whole string value (spec §2.11). */
const REFERENCE = /^\$\{(env|file):([^}]*)\}$/i;

/**
 * Finds the references in the front matter and drops them from a copy of it, so the schema checks
 * what is written literally and a reference never reads as "Invalid input".
 */
function takeReferences(
  value: unknown,
  doc: Document,
  offset: number,
  path: Array<string | number>,
  found: FrontMatterReference[],
): unknown {
  if (typeof value === 'string') {
    const m = REFERENCE.exec(value.trim());
    if (!m) return value;
    const protocol = (m[1] as string).toLowerCase() as 'env' | 'file';
    const content = m[2] as string;
    const split = protocol === 'env' ? content.indexOf(':') : -1;
    found.push({
      protocol,
      target: split === -1 ? content : content.slice(0, split),
      ...(split === -1 ? {} : { fallback: content.slice(split + 1) }),
      field: path.join('.'),
      range: nodeRange(doc, path, offset) ?? { start: offset, end: offset },
    });
    return undefined;
  }
  if (Array.isArray(value)) return value.map((v, i) => takeReferences(v, doc, offset, [...path, i], found));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const kept = takeReferences(v, doc, offset, [...path, k], found);
      if (kept !== undefined) copy[k] = kept;
    }
    return copy;
  }
  return value;
}

/**
 * Reads Prompty front matter (and `.prompt.md`'s, which shares `model`): the model (either form,
 * a reference's default when it has one), sample values, the declared template engine, and the
 * `${env:}`/`${file:}` references, kept as written. Wrong shapes become errors naming the field.
 */
export function readPromptySettings(yaml: YamlResult, range: SourceRange): ReadSettings {
  const references: FrontMatterReference[] = [];
  const none: ReadSettings = { engine: 'jinja2', references, errors: [] };
  if (yaml.value === undefined || yaml.value === null) return none;
  const value = takeReferences(yaml.value, yaml.doc, range.start, [], references);
  const parsed = PromptyFrontMatter.safeParse(value);
  if (!parsed.success)
    return {
      ...none,
      errors: schemaErrors(parsed.error, 'front matter', (path) => nodeRange(yaml.doc, path, range.start) ?? range),
    };
  const fm = parsed.data;
  const errors: ParseError[] = [];
  const referenced = (field: string): FrontMatterReference | undefined => references.find((r) => r.field === field);
  const modelReference = referenced('model') ?? referenced('model.id');
  const model =
    typeof fm.model === 'string'
      ? fm.model
      : (fm.model?.configuration?.model ??
        fm.model?.configuration?.azure_deployment ??
        fm.model?.configuration?.name ??
        fm.model?.id ??
        modelReference?.fallback);

  const kind = typeof fm.template === 'string' ? fm.template : (fm.template?.format ?? 'jinja2');
  const kindName = (typeof kind === 'string' ? kind : kind.kind).toLowerCase();
  const engine = ENGINES[kindName] ?? 'jinja2';
  if (ENGINES[kindName] === undefined)
    errors.push({
      message: `front matter.template: engine ${JSON.stringify(kindName)} is not one this extension reads; its variables are read as Jinja2`,
      range: nodeRange(yaml.doc, ['template'], range.start) ?? range,
      severity: 'warning',
    });

  let sample: Record<string, unknown> | undefined = typeof fm.sample === 'object' ? fm.sample : undefined;
  for (const field of ['sample', 'inputs']) {
    const ref = referenced(field);
    if (ref ?? (field === 'sample' && typeof fm.sample === 'string'))
      errors.push({
        message: `front matter.${field}: ${ref ? `\${${ref.protocol}:${ref.target}}` : JSON.stringify(fm.sample)} is read by Prompty when it loads the file, not here; the variables it would fill stay unfilled`,
        range: ref?.range ?? nodeRange(yaml.doc, [field], range.start) ?? range,
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
  const parameters = typeof fm.model === 'object' ? fm.model.parameters : undefined;
  const tools = functionTools(
    parameters?.tools ?? [],
    'front matter.model.parameters.tools',
    (i) => nodeRange(yaml.doc, ['model', 'parameters', 'tools', i], range.start) ?? range,
    errors,
  );
  const request = declarations(tools, parameters?.response_format);
  return {
    ...(model ? { model } : {}),
    ...(sample ? { sample } : {}),
    ...(Object.keys(request).length > 0 ? { request } : {}),
    engine,
    references,
    errors,
  };
}
