import type { SourceRange } from './types';

export interface FrontMatterSplit {
  /** The YAML between the fences, or undefined when the file has no front matter. */
  yaml?: { text: string; range: SourceRange };
  body: string;
  bodyOffset: number;
}

// `---` on the first line (after an optional BOM), YAML (possibly none), then `---` alone on a line.
const FRONT_MATTER = /^(\uFEFF?---[ \t]*\r?\n)(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;
// Prompty (spec §2.2) also allows `+++` and whitespace before the opening delimiter.
const PROMPTY_FRONT_MATTER =
  /^(\uFEFF?\s*(?:---|\+\+\+)[ \t]*\r?\n)(?:([\s\S]*?)\r?\n)?(?:---|\+\+\+)[ \t]*(?:\r?\n|$)/;

/** Splits `---` fenced YAML front matter from the body (VS Code, Cursor; Prompty's delimiters with `prompty`). */
export function splitFrontMatter(text: string, delimiters: 'dashes' | 'prompty' = 'dashes'): FrontMatterSplit {
  const match = (delimiters === 'prompty' ? PROMPTY_FRONT_MATTER : FRONT_MATTER).exec(text);
  if (!match) return { body: text, bodyOffset: 0 };
  const start = (match[1] as string).length;
  const yamlText = match[2] ?? '';
  const bodyOffset = match[0].length;
  return {
    yaml: { text: yamlText, range: { start, end: start + yamlText.length } },
    body: text.slice(bodyOffset),
    bodyOffset,
  };
}
