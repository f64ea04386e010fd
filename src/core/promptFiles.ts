import picomatch from 'picomatch';
import { BUILTIN_PROMPT_GLOBS, DEFAULT_INCLUDE_GLOBS } from './prompt/formats';

export { BUILTIN_PROMPT_GLOBS, DEFAULT_INCLUDE_GLOBS } from './prompt/formats';

/**
 * Builds a matcher for workspace-relative paths (forward slashes). Paths are matched against the
 * built-in globs (prompt/formats.ts) and the user's include globs.
 */
export function promptFileMatcher(
  include: readonly string[] = DEFAULT_INCLUDE_GLOBS,
): (relativePath: string) => boolean {
  const isMatch = picomatch([...BUILTIN_PROMPT_GLOBS, ...include], { dot: true });
  return (relativePath) => isMatch(relativePath.replace(/\\/g, '/'));
}
