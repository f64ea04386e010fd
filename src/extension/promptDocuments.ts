import * as vscode from 'vscode';
import { BUILTIN_PROMPT_GLOBS, promptFileMatcher } from '../core/promptFiles';
import { readSettings } from './config';

export const PROMPT_LANGUAGES = ['prompt', 'prompty'] as const;

/** The selector for providers: prompt languages, built-in file patterns and the user's include globs. */
export function promptSelector(): vscode.DocumentFilter[] {
  const { include } = readSettings().settings;
  return [
    ...PROMPT_LANGUAGES.map((language) => ({ language })),
    ...[...BUILTIN_PROMPT_GLOBS, ...include].map((pattern) => ({ pattern })),
  ];
}

export function isPromptDocument(document: vscode.TextDocument): boolean {
  if ((PROMPT_LANGUAGES as readonly string[]).includes(document.languageId)) return true;
  const { include } = readSettings(document.uri).settings;
  const relative = vscode.workspace.asRelativePath(document.uri, false);
  return promptFileMatcher(include)(relative);
}
