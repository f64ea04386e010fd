import { buildPrompt, rawSection } from './build';
import { splitFrontMatter } from './frontMatter';
import { splitRoleSections } from './roles';
import { readPromptySettings } from './settings';
import type { PromptFormat } from '../promptFiles';
import type { ParsedPrompt } from './types';
import { parseYaml } from './yaml';

/**
 * Prompty (and `.prompt.md`, which shares the shape): YAML front matter (`model`, `sample`, `inputs`)
 * and a body split at role-marker lines; `sample` values fill `{{ }}` placeholders.
 */
export function parseFrontMatterPrompt(format: PromptFormat, text: string, patterns: readonly RegExp[]): ParsedPrompt {
  const split = splitFrontMatter(text);
  if (!split.yaml) {
    const sections = splitRoleSections(text, 0)?.map((s) => ({ ...s, textOffset: s.range.start })) ?? [rawSection(text)];
    return buildPrompt(format, sections, {}, [], patterns);
  }
  const yaml = parseYaml(split.yaml.text, split.yaml.range.start);
  const settings = yaml.errors.length === 0 ? readPromptySettings(yaml.value, split.yaml.range) : { errors: [] };
  const sections = splitRoleSections(split.body, split.bodyOffset) ?? [{ role: 'user' as const, text: split.body, range: { start: split.bodyOffset, end: text.length } }];
  const { errors, ...promptSettings } = settings;
  return buildPrompt(format, sections.map((s) => ({ ...s, textOffset: s.range.start })), promptSettings, [...yaml.errors, ...errors], patterns);
}
