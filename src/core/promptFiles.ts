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

/**
 * The globs to search the workspace with, one file search each: the built-in globs that name a file in any folder
 * (`*.prompty`, `AGENTS.md` after a leading double star) as one group of alternatives — the shape of the default
 * include glob's `*.{md,txt,json}` — then the other built-in ones and each include glob on its own (ripgrep rejects
 * nested groups). VS Code's file search spawns a ripgrep process per search, synchronously on the extension host:
 * fourteen searches at once held it about a second while a prompt opened (host CPU profile of the hover probe,
 * load ≈ 5).
 */
export function searchGlobs(include: readonly string[], disabled: readonly PromptFormat[] = []): string[] {
  const anywhere: string[] = [];
  const others: string[] = [];
  for (const glob of builtinPromptGlobs(disabled)) {
    const name = /^\*\*\/([^/{}]+)$/.exec(glob)?.[1];
    if (name) anywhere.push(name);
    else others.push(glob);
  }
  const grouped = anywhere.length > 1 ? [`**/{${anywhere.join(',')}}`] : anywhere.map((name) => `**/${name}`);
  return [...grouped, ...others, ...include];
}
