import picomatch from 'picomatch';

/** Built-in prompt file patterns; `promptLens.include` adds to them. */
export const BUILTIN_PROMPT_GLOBS = [
  '**/*.prompt',
  '**/*.prompty',
  '**/*.prompt.md',
  '**/*.prompt.yml',
  '**/*.prompt.yaml',
] as const;
export const DEFAULT_INCLUDE_GLOBS = ['**/prompts/**/*.{md,txt,json}'] as const;

export type PromptFormat = 'plain' | 'prompty' | 'prompt-yaml' | 'prompt-md' | 'chat-json';

/** The format a file's name implies; anything unknown is plain text. */
export function formatOf(fileName: string): PromptFormat {
  const name = fileName.toLowerCase();
  if (name.endsWith('.prompty')) return 'prompty';
  if (name.endsWith('.prompt.yml') || name.endsWith('.prompt.yaml')) return 'prompt-yaml';
  if (name.endsWith('.prompt.md')) return 'prompt-md';
  if (name.endsWith('.json')) return 'chat-json';
  return 'plain';
}

/**
 * Builds a matcher for workspace-relative paths (forward slashes). Paths are matched against the
 * built-in globs and the user's include globs.
 */
export function promptFileMatcher(
  include: readonly string[] = DEFAULT_INCLUDE_GLOBS,
): (relativePath: string) => boolean {
  const isMatch = picomatch([...BUILTIN_PROMPT_GLOBS, ...include], { dot: true });
  return (relativePath) => isMatch(relativePath.replace(/\\/g, '/'));
}
