import { z } from 'zod';
import type { InstructionFormat } from './formats';
import type { Activation, ParseError, SourceRange } from './types';
import { nodeRange, schemaErrors, type YamlResult } from './yaml';

/** Globs may be written as one comma-separated string or as a list (both occur in the wild). */
const globList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) =>
    (Array.isArray(v) ? v : v.split(',')).map((g) => g.trim().replace(/^['"]|['"]$/g, '')).filter((g) => g.length > 0),
  );

// Only the fields that decide when a file is added to a request; the rest (tools, handoffs…) are left alone.
const InstructionsFrontMatter = z.object({ applyTo: globList.optional(), description: z.string().optional() }).loose();
const CursorRuleFrontMatter = z
  .object({
    alwaysApply: z.boolean().optional(),
    globs: z.union([globList, z.null()]).optional(),
    description: z.union([z.string(), z.null()]).optional(),
  })
  .loose();
const DescribedFrontMatter = z.object({ description: z.string().optional(), model: z.string().optional() }).loose();

/** A glob that matches every file: the file applies to every request. */
const EVERYTHING = new Set(['**', '**/*', '*', '**/**']);

export interface InstructionSettings {
  activation: Activation;
  model?: string;
  errors: ParseError[];
}

/**
 * When each instruction format is added to a request, from its documentation:
 * - `.github/copilot-instructions.md`, `AGENTS.md`, `.cursorrules`: every request (VS Code custom
 *   instructions; Cursor's legacy rules file). A nested `AGENTS.md` is narrowed to its folder by
 *   the workspace budget, which knows where the workspace root is.
 * - `*.instructions.md`: `applyTo` globs; `**` means every request; none means attached by hand,
 *   or by the agent from its `description`.
 * - Cursor `.mdc`: `alwaysApply: true` every request; else `globs`; else the agent decides from the
 *   `description`; else only when @-mentioned.
 * - `*.agent.md` / `*.chatmode.md`: the agent's instructions, sent while that agent is selected.
 * - `SKILL.md`: the body is loaded when the model picks the skill by its description.
 */
export function readInstructionSettings(
  format: InstructionFormat,
  frontMatter: { value: unknown; yaml?: YamlResult } | undefined,
  range: SourceRange,
): InstructionSettings {
  const value = frontMatter?.value ?? {};
  const yaml = frontMatter?.yaml;
  const errorsOf = (error: z.ZodError): ParseError[] =>
    schemaErrors(
      error,
      'front matter',
      (path) => (yaml ? nodeRange(yaml.doc, path, range.start) : undefined) ?? range,
    ).map((e) => ({ ...e, severity: 'warning' as const }));
  switch (format) {
    case 'copilot-instructions':
    case 'agents-md':
      return { activation: { kind: 'always' }, errors: [] };
    case 'instructions': {
      const parsed = InstructionsFrontMatter.safeParse(value);
      if (!parsed.success) return { activation: { kind: 'manual' }, errors: errorsOf(parsed.error) };
      const { applyTo, description } = parsed.data;
      return { activation: fromGlobs(applyTo, description), errors: [] };
    }
    case 'cursor-rules': {
      const parsed = CursorRuleFrontMatter.safeParse(value);
      if (!parsed.success) return { activation: { kind: 'manual' }, errors: errorsOf(parsed.error) };
      const { alwaysApply, globs, description } = parsed.data;
      // `.cursorrules` has no front matter and always applies; so does an `.mdc` saying so.
      if (alwaysApply === true || frontMatter === undefined) return { activation: { kind: 'always' }, errors: [] };
      return { activation: fromGlobs(globs ?? undefined, description ?? undefined), errors: [] };
    }
    case 'agent':
    case 'skill': {
      const parsed = DescribedFrontMatter.safeParse(value);
      const model = parsed.success ? parsed.data.model : undefined;
      const description = parsed.success ? parsed.data.description : undefined;
      const activation: Activation =
        format === 'agent' ? { kind: 'agent' } : { kind: 'on-request', ...(description ? { description } : {}) };
      return { activation, ...(model ? { model } : {}), errors: parsed.success ? [] : errorsOf(parsed.error) };
    }
  }
}

function fromGlobs(globs: string[] | undefined, description: string | undefined): Activation {
  if (globs && globs.length > 0)
    return globs.some((g) => EVERYTHING.has(g)) ? { kind: 'always' } : { kind: 'globs', globs };
  return description ? { kind: 'on-request', description } : { kind: 'manual' };
}

/**
 * Front matter read as `key: value` lines, for the files whose tools read it that way: Cursor and
 * VS Code accept an unquoted glob that starts with `*` (`globs: *.ts`), which YAML rejects as an alias. Quotes are
 * removed, `true`/`false` become booleans; undefined when no line has that shape.
 */
export function lenientFrontMatter(text: string): Record<string, string | boolean> | undefined {
  const value: Record<string, string | boolean> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^([A-Za-z][\w-]*)[ \t]*:[ \t]*(.*?)[ \t]*$/.exec(line);
    if (!m) continue;
    const raw = (m[2] as string).replace(/^(['"])(.*)\1$/, '$2');
    value[m[1] as string] = raw === 'true' ? true : raw === 'false' ? false : raw;
  }
  return Object.keys(value).length > 0 ? value : undefined;
}
