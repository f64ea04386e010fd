import { buildPrompt, rawSection } from './build';
import { splitRoleSections } from './roles';
import type { ParsedPrompt } from './types';

/** `.prompt`, `.txt`, `.md` under prompts/: the exact text as one user message, unless role-marker lines split it. */
export function parsePlain(text: string, patterns: readonly RegExp[]): ParsedPrompt {
  const sections = splitRoleSections(text, 0)?.map((s) => ({ ...s, textOffset: s.range.start })) ?? [rawSection(text)];
  return buildPrompt('plain', sections, {}, [], patterns);
}
