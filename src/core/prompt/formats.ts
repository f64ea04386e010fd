/**
 * The one definition of "prompt file": every format, the file names that make a file one, and the VS Code language
 * that owns it. The matcher (promptFiles.ts), the parser's choice of format (formatOf), and package.json's
 * activation events, languages and menu `when` clause are derived from it; test/unit/core/promptFormats.test.ts
 * checks package.json against it. To add a format, add a row here (then run that test: it prints what package.json
 * must say).
 */
export type PromptFormat =
  | 'plain'
  | 'prompty'
  | 'prompt-yaml'
  | 'prompt-md'
  | 'chat-json'
  | 'instructions'
  | 'agent'
  | 'copilot-instructions'
  | 'agents-md'
  | 'skill'
  | 'cursor-rules';

export interface PromptFormatRule {
  id: PromptFormat;
  /** File-name endings (lower case) that select this format. */
  suffixes: readonly string[];
  /** Whole file names that select this format, as spelt on disk (compared case-insensitively). */
  names?: readonly string[];
  /**
   * Where the format's files are found, when not every file with the suffix or name is one (Copilot reads
   * copilot-instructions.md from `.github/` only); default: `**` + each suffix and name.
   */
  globs?: readonly string[];
  /** true: a file with one of the suffixes is a prompt anywhere; false: only where promptLens.include matches it. */
  builtin: boolean;
  /** The language package.json contributes for it, if any. */
  language?: string;
  /**
   * VS Code's own language for it, if any (not ours: package.json only activates on it). Its documents are prompts
   * whatever their name, and an untitled one parses as this format.
   */
  editorLanguage?: string;
  /**
   * Instructions an assistant prepends to requests (VS Code/Copilot, Cursor, agents), sent as written: no template
   * language, no Benchmark button of their own.
   */
  instructions?: true;
}

/** First match wins; a file no rule matches is plain text. */
export const PROMPT_FORMATS: readonly PromptFormatRule[] = [
  { id: 'prompty', suffixes: ['.prompty'], builtin: true, language: 'prompty' },
  { id: 'prompt-yaml', suffixes: ['.prompt.yml', '.prompt.yaml'], builtin: true },
  { id: 'prompt-md', suffixes: ['.prompt.md'], builtin: true, editorLanguage: 'prompt' },
  {
    id: 'copilot-instructions',
    suffixes: [],
    names: ['copilot-instructions.md'],
    globs: ['**/.github/copilot-instructions.md'],
    builtin: true,
    instructions: true,
  },
  { id: 'instructions', suffixes: ['.instructions.md'], builtin: true, instructions: true },
  { id: 'agent', suffixes: ['.agent.md', '.chatmode.md'], builtin: true, instructions: true },
  { id: 'agents-md', suffixes: [], names: ['AGENTS.md'], builtin: true, instructions: true },
  { id: 'skill', suffixes: [], names: ['SKILL.md'], builtin: true, instructions: true },
  {
    id: 'cursor-rules',
    suffixes: ['.mdc'],
    names: ['.cursorrules'],
    globs: ['**/.cursorrules', '**/.cursor/rules/**/*.mdc'],
    builtin: true,
    instructions: true,
  },
  { id: 'chat-json', suffixes: ['.json'], builtin: false },
  { id: 'plain', suffixes: ['.prompt'], builtin: true, language: 'prompt-lens-plain' },
];

/** Formats a user can switch off (`promptLens.formats.disabled`): the built-in ones. */
export const SWITCHABLE_FORMATS = [
  'prompty',
  'prompt-yaml',
  'prompt-md',
  'copilot-instructions',
  'instructions',
  'agent',
  'agents-md',
  'skill',
  'cursor-rules',
  'plain',
] as const satisfies readonly PromptFormat[];
export type SwitchableFormat = (typeof SWITCHABLE_FORMATS)[number];

/** The instruction formats: prepended to requests, sent as written (see `PromptFormatRule.instructions`). */
export type InstructionFormat =
  'instructions' | 'agent' | 'copilot-instructions' | 'agents-md' | 'skill' | 'cursor-rules';

export function isInstructionFormat(format: PromptFormat): format is InstructionFormat {
  return PROMPT_FORMATS.find((f) => f.id === format)?.instructions === true;
}

function matches(rule: PromptFormatRule, name: string, base: string): boolean {
  return rule.suffixes.some((s) => name.endsWith(s)) || (rule.names ?? []).some((n) => base === n.toLowerCase());
}

/**
 * The format a file's name implies; anything unknown is plain text. A format switched off
 * (`promptLens.formats.disabled`) is plain text too (chat JSON still reads as JSON).
 */
export function formatOf(fileName: string, disabled: readonly PromptFormat[] = []): PromptFormat {
  const name = fileName.toLowerCase().replace(/\\/g, '/');
  const base = name.slice(name.lastIndexOf('/') + 1);
  const rule = PROMPT_FORMATS.find((f) => matches(f, name, base));
  if (!rule || (disabled.includes(rule.id) && rule.id !== 'chat-json')) return 'plain';
  return rule.id;
}

function globsOf(rule: PromptFormatRule): string[] {
  return [...(rule.globs ?? [...rule.suffixes.map((s) => `**/*${s}`), ...(rule.names ?? []).map((n) => `**/${n}`)])];
}

/** Built-in prompt file globs (workspace-relative), less the disabled formats'; `promptLens.include` adds to them. */
export function builtinPromptGlobs(disabled: readonly PromptFormat[] = []): string[] {
  return PROMPT_FORMATS.filter((f) => f.builtin && !disabled.includes(f.id)).flatMap(globsOf);
}

/** Every built-in prompt file glob (activation events are static, whatever is disabled). */
export const BUILTIN_PROMPT_GLOBS: readonly string[] = builtinPromptGlobs();

/** `promptLens.include`'s default: prompt folders' Markdown, text and chat JSON. */
export const DEFAULT_INCLUDE_GLOBS = ['**/prompts/**/*.{md,txt,json}'] as const;

/** The languages of prompt formats: those package.json contributes, and VS Code's own. */
export const PROMPT_LANGUAGES: readonly string[] = PROMPT_FORMATS.flatMap((f) =>
  [f.language, f.editorLanguage].filter((l) => l !== undefined),
);

/** The format of an untitled document in `languageId` (its name says nothing), if that is a prompt language. */
export function formatOfLanguage(languageId: string): PromptFormatRule | undefined {
  return PROMPT_FORMATS.find((f) => f.language === languageId || f.editorLanguage === languageId);
}

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

/**
 * The menu `when` clause for "is a built-in prompt file you can benchmark": its language (an untitled prompt has no
 * name), or its suffix (a `.prompt` the user gave another language, e.g. Markdown, is still one). Instruction files
 * are not requests of their own, so they get no Benchmark button.
 */
export function promptFileWhenClause(): string {
  const suffixes = PROMPT_FORMATS.filter((f) => f.builtin && !f.instructions).flatMap((f) => f.suffixes);
  const escaped = suffixes.map((s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
  return [
    ...PROMPT_LANGUAGES.map((l) => `resourceLangId == ${l}`),
    `resourceFilename =~ /(${escaped.join('|')})$/`,
  ].join(' || ');
}
