import { bodySections, buildPrompt } from './build';
import { splitFrontMatter } from './frontMatter';
import { readPromptySettings } from './settings';
import type { PromptFormat } from './formats';
import type { ParsedPrompt } from './types';
import { parseYaml } from './yaml';

/**
 * Prompty (and `.prompt.md`, which shares the shape): YAML front matter (`model`, `sample`, `inputs`)
 * and a body split at role-marker lines; `sample` values fill `{{ }}` placeholders.
 */
export function parseFrontMatterPrompt(format: PromptFormat, text: string, patterns: readonly RegExp[]): ParsedPrompt {
  const split = splitFrontMatter(text);
  if (!split.yaml) return buildPrompt(format, bodySections(text, 0), {}, [], patterns);
  const yaml = parseYaml(split.yaml.text, split.yaml.range.start);
  const settings = yaml.errors.length === 0 ? readPromptySettings(yaml, split.yaml.range) : { errors: [] };
  const { errors, ...promptSettings } = settings;
  return buildPrompt(
    format,
    bodySections(split.body, split.bodyOffset),
    promptSettings,
    [...yaml.errors, ...errors],
    patterns,
  );
}
