import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
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
const hasWords = (literal: string) => /[A-Za-z]{3,}/.test(literal.replace(/\$\{[^}]*\}|\$\([\w-]+(?:~spin)?\)/g, ''));

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

/**
 * The Markdown the hover and the status bar tooltip show is built from many small pieces, not in one call: in
 * these files every literal with words in it must be the message of a `t(…)` / `vscode.l10n.t(…)` call.
 * Left alone: ids and keys (one word, no spaces), comparisons with data (`source === 'static'`), log lines,
 * code spans, errors, imports.
 */
const MARKDOWN_SURFACES = [
  'src/extension/surfaces/hover.ts',
  'src/extension/surfaces/statusBar.ts',
  'src/extension/surfaces/targetTable.ts',
  'src/extension/surfaces/cheapest.ts',
];

/** Text a user reads: letters once substitutions and `$(icon)`s (spinning too) are gone, and more than an id or key. */
const readable = (text: string) => {
  const bare = text.replace(/\$\{[^}]*\}|\$\([\w-]+(?:~spin)?\)/g, '');
  return /[A-Za-z]{3,}/.test(bare) && !/^[\w.$/-]*$/.test(bare);
};

const isTranslateCall = (node: ts.Node) =>
  ts.isCallExpression(node) && /^(?:(?:vscode\.)?l10n\.)?t$/.test(node.expression.getText());

/**
 * In the webviews' scripts the words come from their strings catalog (`s.heading`, `fill(s.summary, …)`):
 * literals are left only for markup — a tag name, class, id, type, role, data-… or aria-sort attribute, a
 * selector or theme variable, a message to the host.
 */
const WEBVIEW_SCRIPTS = ['src/webview/results/main.ts', 'src/webview/compare/main.ts'];
const MARKUP_PROPERTY = /^(?:class|id|type|scope|role|value|command|format|data-[\w-]+|aria-sort)$/;
const MARKUP_CALL = /(?:^|\.)(?:querySelector(?:All)?|getElementById|themeColor|addEventListener)$/;

/** Why a literal need not be translated, looking up from it; false when it must be. */
function exempt(node: ts.Node): boolean {
  for (let child = node, parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (ts.isPropertyAssignment(parent) && parent.initializer === child) {
      const name = parent.name.getText().replace(/^['"]|['"]$/g, '');
      if (MARKUP_PROPERTY.test(name)) return true;
    }
    if (ts.isCallExpression(parent)) {
      const callee = parent.expression.getText();
      if (MARKUP_CALL.test(callee)) return true;
      if (callee === 'h' && parent.arguments[0] === child) return true; // the tag name
    }
    if (ts.isCallExpression(parent)) {
      if (isTranslateCall(parent)) return parent.arguments[0] === child;
      // Log lines stay English; a code span quotes the file (`model: …`), it is not prose.
      if (/^(?:log\.\w+|markdownCode)$/.test(parent.expression.getText())) return true;
    }
    if (ts.isNewExpression(parent) && /Error$/.test(parent.expression.getText())) return true;
    if (ts.isImportDeclaration(parent)) return true;
    if (
      ts.isBinaryExpression(parent) &&
      [ts.SyntaxKind.EqualsEqualsEqualsToken, ts.SyntaxKind.ExclamationEqualsEqualsToken].includes(
        parent.operatorToken.kind,
      )
    )
      return true;
  }
  return false;
}

/** Every literal with words in a Markdown-building source that no t(…) translates. */
export function untranslatedLiterals(source: string): string[] {
  const file = ts.createSourceFile('surface.ts', source, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    const text =
      ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)
        ? node.text
        : ts.isTemplateExpression(node)
          ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('${}')
          : undefined;
    if (text !== undefined && readable(text) && !exempt(node)) found.push(text);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('localisation: runtime strings in src/extension', () => {
  it('every notification, title, placeholder, label and status bar text goes through vscode.l10n.t', () => {
    const offenders = sourceFiles(join(ROOT, 'src/extension')).flatMap((file) =>
      literalUserStrings(readFileSync(file, 'utf8')).map((l) => `${relative(ROOT, file)}: ${l}`),
    );
    assert.deepEqual(offenders, []);
  });

  it('the hover and status bar tooltip Markdown: every piece with words goes through t / vscode.l10n.t', () => {
    const offenders = MARKDOWN_SURFACES.flatMap((file) =>
      untranslatedLiterals(readFileSync(join(ROOT, file), 'utf8')).map((l) => `${file}: ${l}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("the webviews' static texts come from their strings catalog, which the extension translates", () => {
    const offenders = WEBVIEW_SCRIPTS.flatMap((file) =>
      untranslatedLiterals(readFileSync(join(ROOT, file), 'utf8')).map((l) => `${file}: ${l}`),
    );
    assert.deepEqual(offenders, []);
    // Each view's page carries its catalog through vscode.l10n.t (panelHost.ts `localised`).
    for (const [panel, catalog] of [
      ['src/extension/bench/resultsPanel.ts', 'RESULTS_STRINGS'],
      ['src/extension/commands/compare.ts', 'COMPARE_STRINGS'],
    ])
      assert.match(readFileSync(join(ROOT, panel), 'utf8'), new RegExp(`strings: localised\\(${catalog}\\)`), panel);
  });

  it('finds an untranslated text in a webview script (the check can fail)', () => {
    assert.deepEqual(
      untranslatedLiterals(
        [
          "h('h2', { class: 'section title', 'data-test': 'levels' }, 'Percentiles per level');",
          "h('button', { title: `Sort by ${c.title}`, onclick: () => resort(c.key) }, s.use);",
          "app.querySelector('[data-test=progress] > p');",
          "h('p', {}, fill(s.summary, meeting, total));",
          "host.post({ type: 'command', command: 'promptLens.cancelBenchmark' });",
        ].join('\n'),
      ),
      ['Percentiles per level', 'Sort by ${}'],
    );
  });

  it('finds an untranslated piece of Markdown (the check can fail)', () => {
    assert.deepEqual(
      untranslatedLiterals(
        [
          "lines.push(`**Prompt Latency Lens** · primary target ${code}`, '');",
          "const head = ['| target | TTFT cold |', '|:--|--:|'];",
          "const cell = t('TTFT cold');",
          "const text = t('Tokens: {0}', parts.join(' · '));",
          "if (source === 'shared with other prompts') return t('the prefix shared with other prompts');",
          "const line = `${t('no warm figure: {0}', reason)} — ${'click to compare'}`;",
          'log.info(`comparison of ${name} failed`);',
          "import { x } from '../../core/some module';",
          "const id = 'promptLens.summary';",
        ].join('\n'),
      ),
      ['**Prompt Latency Lens** · primary target ${}', '| target | TTFT cold |', 'click to compare'],
    );
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
