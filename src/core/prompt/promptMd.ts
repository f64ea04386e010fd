import { parseFrontMatterPrompt } from './prompty';
import type { ParsedPrompt } from './types';

/** VS Code prompt files reference `${input:name}` (or `${input:name:placeholder}`), `${selection}`, `${file}`. */
const PROMPT_MD_VARIABLES = /\$\{((?:input:)?[^{}:]+)(?::[^{}]*)?\}/g;

/**
 * `.prompt.md`: front matter (`model`, `mode`, `tools`…) and the body, one user message unless role markers split it.
 */
export function parsePromptMd(text: string, patterns: readonly RegExp[]): ParsedPrompt {
  return parseFrontMatterPrompt('prompt-md', text, [...patterns, PROMPT_MD_VARIABLES]);
}
