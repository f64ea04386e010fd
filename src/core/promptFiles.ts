import picomatch from 'picomatch';
import { z } from 'zod';
import { builtinPromptGlobs, DEFAULT_INCLUDE_GLOBS, type PromptFormat } from './prompt/formats';

export { BUILTIN_PROMPT_GLOBS, DEFAULT_INCLUDE_GLOBS } from './prompt/formats';

/** Longer workspace-relative paths are never prompt files: with the glob bounds below, this bounds a match. */
export const MAX_MATCHED_PATH = 1024;

/**
 * Why an include glob is refused, or undefined. picomatch compiles globs to backtracking regular expressions run
 * synchronously on the extension host: two `*` in one path segment cost the cube of the name's length (3 s for a
 * 255-character name with three), `{*e,*ee,*eee}` and three `**` multiply, so each segment gets one `*` (inside
 * braces too), a glob at most two `**` segments, and extglobs none.
 */
export function globProblem(glob: string): string | undefined {
  if (/[@!+*?]\(/.test(glob)) return 'extglobs such as *(…) or !(…) are not supported';
  const segments = glob.split('/');
  if (segments.filter((s) => s === '**').length > 2) return 'at most two ** segments';
  const busy = segments.find((s) => s !== '**' && (s.match(/\*/g)?.length ?? 0) > 1);
  if (busy !== undefined) return `"${busy}": at most one * per path segment (counting every {…} alternative)`;
  return undefined;
}

export const includeGlobSchema = z
  .string()
  .min(1)
  .max(256)
  .superRefine((glob, ctx) => {
    const problem = globProblem(glob);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

/**
 * Builds a matcher for workspace-relative paths (forward slashes). Paths are matched against the
 * built-in globs of the enabled formats (prompt/formats.ts) and the user's include globs.
 */
export function promptFileMatcher(
  include: readonly string[] = DEFAULT_INCLUDE_GLOBS,
  disabled: readonly PromptFormat[] = [],
): (relativePath: string) => boolean {
  const isMatch = picomatch([...builtinPromptGlobs(disabled), ...include], { dot: true });
  return (relativePath) => relativePath.length <= MAX_MATCHED_PATH && isMatch(relativePath.replace(/\\/g, '/'));
}
