import * as vscode from 'vscode';
import { BUILTIN_PROMPT_GLOBS, PROMPT_LANGUAGES } from '../core/prompt/formats';
import { promptFileMatcher } from '../core/promptFiles';
import { readSettings } from './settings';

/** The selector for providers: prompt languages, built-in file patterns and the user's include globs. */
export function promptSelector(): vscode.DocumentFilter[] {
  const { include } = readSettings().settings;
  return [
    ...PROMPT_LANGUAGES.map((language) => ({ language })),
    ...[...BUILTIN_PROMPT_GLOBS, ...include].map((pattern) => ({ pattern })),
  ];
}

/** Compiled matchers by include list: this check runs on every keystroke and hover. */
const matchers = new Map<string, (relativePath: string) => boolean>();

export function isPromptDocument(document: vscode.TextDocument): boolean {
  if (PROMPT_LANGUAGES.includes(document.languageId)) return true;
  const { include } = readSettings(document.uri).settings;
  const key = JSON.stringify(include);
  let matches = matchers.get(key);
  if (!matches) matchers.set(key, (matches = promptFileMatcher(include)));
  return matches(vscode.workspace.asRelativePath(document.uri, false));
}

/**
 * Every prompt file in the workspace (one search per glob: ripgrep rejects nested `{}` groups,
 * and the default include glob has one), without duplicates.
 */
export async function findPromptFiles(limit = 5000): Promise<vscode.Uri[]> {
  const { include } = readSettings().settings;
  const found = await Promise.all(
    [...BUILTIN_PROMPT_GLOBS, ...include].map((glob) =>
      vscode.workspace.findFiles(glob, '**/{node_modules,.git}/**', limit),
    ),
  );
  const unique = new Map(found.flat().map((uri) => [uri.toString(), uri]));
  return [...unique.values()].slice(0, limit);
}
