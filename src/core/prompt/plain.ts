import { bodySections, buildPrompt } from './build';
import { templateLanguage } from './templateLanguage';
import type { ParsedPrompt } from './types';

/** `.prompt`, `.txt`, `.md` under prompts/: the exact text as one user message, unless role-marker lines split it. */
export function parsePlain(text: string, userPatterns: readonly RegExp[]): ParsedPrompt {
  return buildPrompt('plain', bodySections(text, 0), {}, [], templateLanguage('generic', userPatterns));
}
