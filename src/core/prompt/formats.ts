/**
 * The one definition of "prompt file": every format, the file names that make a file one, and the VS Code language
 * that owns it. The matcher (promptFiles.ts), the parser's choice of format (formatOf), and package.json's
 * activation events, languages and menu `when` clause are derived from it; test/unit/core/promptFormats.test.ts
 * checks package.json against it. To add a format, add a row here (then run that test: it prints what package.json
 * must say).
 */
export type PromptFormat = 'plain' | 'prompty' | 'prompt-yaml' | 'prompt-md' | 'chat-json';

export interface PromptFormatRule {
  id: PromptFormat;
  /** File-name endings (lower case) that select this format. */
  suffixes: readonly string[];
  /** true: a file with one of the suffixes is a prompt anywhere; false: only where promptLens.include matches it. */
  builtin: boolean;
  /** The language package.json contributes for it, if any. */
  language?: string;
}

/** First match wins; a file no rule matches is plain text. */
export const PROMPT_FORMATS: readonly PromptFormatRule[] = [
  { id: 'prompty', suffixes: ['.prompty'], builtin: true, language: 'prompty' },
  { id: 'prompt-yaml', suffixes: ['.prompt.yml', '.prompt.yaml'], builtin: true },
  { id: 'prompt-md', suffixes: ['.prompt.md'], builtin: true },
  { id: 'chat-json', suffixes: ['.json'], builtin: false },
  { id: 'plain', suffixes: ['.prompt'], builtin: true, language: 'prompt' },
];

/** The format a file's name implies; anything unknown is plain text. */
export function formatOf(fileName: string): PromptFormat {
  const name = fileName.toLowerCase();
  return PROMPT_FORMATS.find((f) => f.suffixes.some((s) => name.endsWith(s)))?.id ?? 'plain';
}

/** Built-in prompt file globs (workspace-relative); `promptLens.include` adds to them. */
export const BUILTIN_PROMPT_GLOBS: readonly string[] = PROMPT_FORMATS.filter((f) => f.builtin).flatMap((f) =>
  f.suffixes.map((s) => `**/*${s}`),
);

/** `promptLens.include`'s default: prompt folders' Markdown, text and chat JSON. */
export const DEFAULT_INCLUDE_GLOBS = ['**/prompts/**/*.{md,txt,json}'] as const;

/** Languages package.json contributes for prompt formats. */
export const PROMPT_LANGUAGES: readonly string[] = PROMPT_FORMATS.flatMap((f) => (f.language ? [f.language] : []));

/** `{a,b}` expanded (VS Code's workspaceContains takes one plain glob per event). */
function expandBraces(glob: string): string[] {
  const m = /\{([^{}]*)\}/.exec(glob);
  if (!m) return [glob];
  return m[1]!.split(',').flatMap((alt) => expandBraces(glob.replace(m[0], alt)));
}

/**
 * package.json's activation events for prompt files: a workspace with any built-in prompt file, or one that the
 * default include globs match (a workspace with only prompts/*.md), and the prompt languages.
 */
export function promptActivationEvents(): string[] {
  return [
    ...BUILTIN_PROMPT_GLOBS.map((g) => `workspaceContains:${g}`),
    ...DEFAULT_INCLUDE_GLOBS.flatMap(expandBraces).map((g) => `workspaceContains:${g}`),
    ...PROMPT_LANGUAGES.map((l) => `onLanguage:${l}`),
  ];
}

/** The menu `when` clause for "is a built-in prompt file": its language, or a built-in suffix without one. */
export function promptFileWhenClause(): string {
  const suffixes = PROMPT_FORMATS.filter((f) => f.builtin && !f.language).flatMap((f) => f.suffixes);
  const escaped = suffixes.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return [
    ...PROMPT_LANGUAGES.map((l) => `resourceLangId == ${l}`),
    `resourceFilename =~ /(${escaped.join('|')})$/`,
  ].join(' || ');
}
