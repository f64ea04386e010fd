import { bodySections, buildPrompt } from './build';
import type { ParsedPrompt } from './types';

/** `.prompt`, `.txt`, `.md` under prompts/: the exact text as one user message, unless role-marker lines split it. */
export function parsePlain(text: string, patterns: readonly RegExp[]): ParsedPrompt {
  return buildPrompt('plain', bodySections(text, 0), {}, [], patterns);
}
