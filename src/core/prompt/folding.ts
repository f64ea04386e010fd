import { formatOf } from './formats';
import { splitFrontMatter } from './frontMatter';
import { roleSectionSpans } from './roles';
import type { SourceRange } from './types';

/**
 * Role sections to fold in a prompt file, as offsets: the formats whose body is split at role
 * markers (`.prompt`, `.prompty` after its front matter); none for the others, where a marker line
 * is not a message boundary.
 */
export function roleFoldingSpans(fileName: string, text: string): SourceRange[] {
  const format = formatOf(fileName);
  if (format === 'plain') return roleSectionSpans(text, 0);
  if (format !== 'prompty') return [];
  const { body, bodyOffset } = splitFrontMatter(text, 'prompty');
  return roleSectionSpans(body, bodyOffset);
}
