import { z } from 'zod';
import { buildPrompt, rawSection, verbatimOffset, type Section } from './build';
import type { ParsedPrompt } from './types';
import { nodeRange, parseYaml, schemaErrors } from './yaml';

const Role = z.enum(['system', 'developer', 'user', 'assistant', 'tool']);

/** GitHub prompt file (`.prompt.yml`): `messages`, `model`, `testData` (the first case fills variables). */
const PromptYaml = z
  .object({
    model: z.string().optional(),
    messages: z.array(z.object({ role: Role, content: z.string() }).loose()).min(1),
    testData: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .loose();

export function parsePromptYaml(text: string, patterns: readonly RegExp[]): ParsedPrompt {
  const whole = { start: 0, end: text.length };
  const yaml = parseYaml(text, 0);
  if (yaml.errors.length > 0) return buildPrompt('prompt-yaml', [rawSection(text)], {}, yaml.errors, patterns);
  const parsed = PromptYaml.safeParse(yaml.value ?? {});
  if (!parsed.success) {
    const errors = schemaErrors(parsed.error, '.prompt.yml', (path) => nodeRange(yaml.doc, path, 0) ?? whole);
    return buildPrompt('prompt-yaml', [rawSection(text)], {}, errors, patterns);
  }
  const { model, messages, testData } = parsed.data;
  const sections: Section[] = messages.map((m, i) => {
    const range = nodeRange(yaml.doc, ['messages', i, 'content'], 0) ?? whole;
    const textOffset = verbatimOffset(text, range, m.content);
    return { role: m.role, text: m.content, range, ...(textOffset === undefined ? {} : { textOffset }) };
  });
  const sample = testData?.[0];
  return buildPrompt(
    'prompt-yaml',
    sections,
    { ...(model ? { model } : {}), ...(sample ? { sample } : {}) },
    [],
    patterns,
  );
}
