import * as vscode from 'vscode';
import { sourceText, type ScanSource } from '../core/analysis/batches';
import type { ReportFileInput } from '../core/findings/report';
import { builtinPromptGlobs, formatOfLanguage, PROMPT_LANGUAGES } from '../core/prompt/formats';
import { promptFileMatcher, searchGlobs } from '../core/promptFiles';
import { readSettings } from './settings';

/** The selector for providers: prompt languages, built-in file patterns and the user's include globs. */
export function promptSelector(): vscode.DocumentFilter[] {
  const { include, formats } = readSettings().settings;
  return [
    ...PROMPT_LANGUAGES.map((language) => ({ language })),
    ...[...builtinPromptGlobs(formats.disabled), ...include].map((pattern) => ({ pattern })),
  ];
}

/**
 * The name to parse a document by: its file name, except for an untitled editor ("Untitled-1", e.g. Open an
 * Example Prompt), whose language says the format instead.
 */
export function parseFileName(document: vscode.TextDocument): string {
  const extension = formatOfLanguage(document.languageId)?.suffixes[0];
  return document.isUntitled && extension && !document.fileName.endsWith(extension)
    ? `${document.fileName}${extension}`
    : document.fileName;
}

/** Compiled matchers by include list and disabled formats: this check runs on every keystroke and hover. */
const matchers = new Map<string, (relativePath: string) => boolean>();

/** The document's length in UTF-16 units, without copying its text (getText() on a megabyte holds the host). */
export function textLength(document: vscode.TextDocument): number {
  return document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
}

export function isPromptDocument(document: vscode.TextDocument): boolean {
  if (PROMPT_LANGUAGES.includes(document.languageId)) return true;
  const { include, formats } = readSettings(document.uri).settings;
  const key = JSON.stringify([include, formats.disabled]);
  let matches = matchers.get(key);
  if (!matches) matchers.set(key, (matches = promptFileMatcher(include, formats.disabled)));
  return matches(vscode.workspace.asRelativePath(document.uri, false));
}

/**
 * Every prompt file in the workspace (see searchGlobs: ripgrep rejects nested `{}` groups, and the default include
 * glob has one), without duplicates.
 */
export async function findPromptFiles(limit = 5000): Promise<vscode.Uri[]> {
  const { include, formats } = readSettings().settings;
  const unique = new Map<string, vscode.Uri>();
  // One search at a time: each starts a process on the host's thread.
  for (const glob of searchGlobs(include, formats.disabled))
    for (const uri of await vscode.workspace.findFiles(glob, '**/{node_modules,.git}/**', limit))
      unique.set(uri.toString(), uri);
  return [...unique.values()].slice(0, limit);
}

/**
 * The text of every prompt file in the workspace (open ones as edited, unsaved changes included), named
 * relative to the workspace; files over `maxFileBytes` and unreadable ones are left out.
 */
export async function readWorkspacePrompts(maxFileBytes: number): Promise<ReportFileInput[]> {
  return (await workspacePromptSources(maxFileBytes)).map(sourceText);
}

/**
 * The same files, those not open as the bytes read from disk: the workspace scan hands them to the analysis worker
 * undecoded (decoding and copying their text held the extension host).
 */
export async function workspacePromptSources(maxFileBytes: number): Promise<ScanSource[]> {
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const sources: ScanSource[] = [];
  for (const uri of await findPromptFiles()) {
    const path = vscode.workspace.asRelativePath(uri, false);
    const document = open.get(uri.toString());
    if (document) {
      const text = document.getText();
      if (Buffer.byteLength(text) <= maxFileBytes) sources.push({ path, text });
      continue;
    }
    const bytes = await vscode.workspace.fs.readFile(uri).then(undefined, () => undefined);
    if (bytes && bytes.byteLength <= maxFileBytes) sources.push({ path, bytes });
  }
  return sources;
}
