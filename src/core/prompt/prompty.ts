import { isInstructionFormat, type PromptFormat } from './formats';
import { bodySections, buildPrompt, rawSection } from './build';
import { splitFrontMatter } from './frontMatter';
import { lenientFrontMatter, readInstructionSettings } from './instructions';
import { readPromptySettings } from './settings';
import { templateLanguage, type TemplateEngine } from './templateLanguage';
import type { ParsedPrompt, ParseError, PromptSettings } from './types';
import { parseYaml } from './yaml';

/**
 * Files made of optional YAML front matter and a Markdown body:
 * - Prompty: the body is rendered with the front matter's template engine (Jinja2 by default) and
 *   split at role markers; text before the first marker, or a body without any, is the system
 *   message (spec §2.10); `sample` and input defaults fill variables.
 * - `.prompt.md`: one user message unless role markers split it; `${input:…}` and kin are variables.
 * - Instruction files (`*.instructions.md`, `*.agent.md`, `AGENTS.md`, `SKILL.md`, Cursor rules…):
 *   the body, as written, is one system message; the front matter says when it applies.
 */
export function parseFrontMatterPrompt(
  format: PromptFormat,
  text: string,
  userPatterns: readonly RegExp[],
): ParsedPrompt {
  const split = splitFrontMatter(text, format === 'prompty' ? 'prompty' : 'dashes');
  const yaml = split.yaml ? parseYaml(split.yaml.text, split.yaml.range.start) : undefined;
  const yamlErrors = yaml?.errors ?? [];
  const readable = yaml !== undefined && yamlErrors.length === 0 ? yaml : undefined;
  const range = split.yaml?.range ?? { start: 0, end: 0 };

  let settings: PromptSettings = {};
  let errors: ParseError[] = [];
  if (isInstructionFormat(format)) {
    // Their tools read front matter leniently: a YAML error is not one there when `key: value` lines read.
    const lenient = split.yaml && !readable ? lenientFrontMatter(split.yaml.text) : undefined;
    const frontMatter = readable
      ? { value: readable.value, yaml: readable }
      : lenient
        ? { value: lenient }
        : split.yaml
          ? { value: {} }
          : undefined;
    const read = readInstructionSettings(format, frontMatter, range);
    settings = { activation: read.activation, ...(read.model ? { model: read.model } : {}) };
    errors = [...(lenient ? [] : yamlErrors), ...read.errors];
    const body =
      split.body.trim().length === 0 ? [] : [{ ...rawSection(split.body, split.bodyOffset), role: 'system' as const }];
    return buildPrompt(format, body, settings, errors, templateLanguage('none', userPatterns));
  }

  let engine: TemplateEngine = format === 'prompty' ? 'jinja2' : 'vscode-prompt';
  if (readable) {
    const { errors: readErrors, engine: declared, references, ...rest } = readPromptySettings(readable, range);
    settings = { ...rest, ...(references.length > 0 ? { references } : {}) };
    errors = readErrors;
    if (format === 'prompty') engine = declared;
  }
  // Prompty: a body without role markers is the system message (spec §2.10).
  const sections = bodySections(split.body, split.bodyOffset, format === 'prompty' ? 'system' : 'user');
  return buildPrompt(format, sections, settings, [...yamlErrors, ...errors], templateLanguage(engine, userPatterns));
}
