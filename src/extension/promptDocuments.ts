import * as vscode from 'vscode';
import { builtinPromptGlobs, PROMPT_LANGUAGES } from '../core/prompt/formats';
import { promptFileMatcher } from '../core/promptFiles';
import { readSettings } from './settings';

/** The selector for providers: prompt languages, built-in file patterns and the user's include globs. */
export function promptSelector(): vscode.DocumentFilter[] {
  const { include, formats } = readSettings().settings;
  return [
    ...PROMPT_LANGUAGES.map((language) => ({ language })),
    ...[...builtinPromptGlobs(formats.disabled), ...include].map((pattern) => ({ pattern })),
  ];
}

/** Compiled matchers by include list and disabled formats: this check runs on every keystroke and hover. */
const matchers = new Map<string, (relativePath: string) => boolean>();

export function isPromptDocument(document: vscode.TextDocument): boolean {
  if (PROMPT_LANGUAGES.includes(document.languageId)) return true;
  const { include, formats } = readSettings(document.uri).settings;
  const key = JSON.stringify([include, formats.disabled]);
  let matches = matchers.get(key);
  if (!matches) matchers.set(key, (matches = promptFileMatcher(include, formats.disabled)));
  return matches(vscode.workspace.asRelativePath(document.uri, false));
}

/**
 * Every prompt file in the workspace (one search per glob: ripgrep rejects nested `{}` groups,
 * and the default include glob has one), without duplicates.
 */
export async function findPromptFiles(limit = 5000): Promise<vscode.Uri[]> {
  const { include, formats } = readSettings().settings;
  const found = await Promise.all(
    [...builtinPromptGlobs(formats.disabled), ...include].map((glob) =>
      vscode.workspace.findFiles(glob, '**/{node_modules,.git}/**', limit),
    ),
  );
  const unique = new Map(found.flat().map((uri) => [uri.toString(), uri]));
  return [...unique.values()].slice(0, limit);
}
