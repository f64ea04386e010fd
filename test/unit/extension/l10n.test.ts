import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/packaging';

/**
 * Localisation of runtime strings (#25 item 4): in src/extension, what VS Code shows to the user —
 * notifications, quick pick and input box texts, progress and panel titles, CodeLens and code action
 * titles, status bar texts — goes through vscode.l10n.t, never a literal with words in it.
 */
const USER_FACING = [
  // a notification's message (the notify.ts helpers and VS Code's own)
  /\bshow(?:Info|Warning|Error)(?:rmationMessage|ingMessage|orMessage|Message)?\(\s*/g,
  // quick pick, input box, dialog, progress, panel and CodeLens/command titles; status bar texts
  /\b(?:placeHolder|prompt|title|openLabel|label|description|detail|tooltip)\s*:\s*/g,
  /\.(?:text|tooltip)\s*=\s*/g,
  /new vscode\.CodeAction\(\s*/g,
];

/** The string literal at `at`, if one starts there ('…', "…" or `…` without nesting). */
function literalAt(source: string, at: number): string | undefined {
  const quote = source[at];
  if (quote !== "'" && quote !== '"' && quote !== '`') return undefined;
  const end = source.indexOf(quote, at + 1);
  return end < 0 ? undefined : source.slice(at + 1, end);
}

/** Words a user reads: what is left of a literal once `${…}` substitutions and `$(icon)` names are gone. */
const hasWords = (literal: string) => /[A-Za-z]{3,}/.test(literal.replace(/\$\{[^}]*\}|\$\([\w-]+\)/g, ''));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

export function literalUserStrings(source: string): string[] {
  const found: string[] = [];
  for (const pattern of USER_FACING)
    for (const match of source.matchAll(pattern)) {
      const literal = literalAt(source, match.index + match[0].length);
      if (literal !== undefined && hasWords(literal)) found.push(literal);
    }
  return found;
}

describe('localisation: runtime strings in src/extension', () => {
  it('every notification, title, placeholder, label and status bar text goes through vscode.l10n.t', () => {
    const offenders = sourceFiles(join(ROOT, 'src/extension')).flatMap((file) =>
      literalUserStrings(readFileSync(file, 'utf8')).map((l) => `${relative(ROOT, file)}: ${l}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('finds a literal message, title or status bar text (the check can fail)', () => {
    assert.deepEqual(
      literalUserStrings(
        [
          "void showWarning('Prompt Latency Lens: open a folder.');",
          "const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Endpoint to benchmark' });",
          'this.target.text = `$(server) ${label} target`;',
          "void showInfo(vscode.l10n.t('Prompt Latency Lens: saved.'));",
          'this.summary.text = `${icon} ${line}`;',
        ].join('\n'),
      ),
      ['Prompt Latency Lens: open a folder.', 'Endpoint to benchmark', '$(server) ${label} target'],
    );
  });
});
