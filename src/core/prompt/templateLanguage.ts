import { markdownCodeRanges } from './markdownCode';
import type { SourceRange } from './types';

/**
 * The template language a file is rendered with at request time: only its own syntax is a
 * variable. Prompty renders its body with the engine its front matter names (Jinja2 unless it says
 * otherwise); a GitHub `.prompt.yml` substitutes `{{name}}`; a VS Code `.prompt.md` substitutes
 * `${input:…}`, `${selection}`, `${file}` and their kin; plain prompt files are read with the
 * common `{{ x }}` / `{% … %}` convention; instruction files (`*.instructions.md`, `AGENTS.md`,
 * `SKILL.md`, Cursor rules…) are sent as written and have none.
 */
export type TemplateEngine = 'jinja2' | 'mustache' | 'github-models' | 'vscode-prompt' | 'generic' | 'none';

export const TEMPLATE_ENGINES: readonly TemplateEngine[] = [
  'jinja2',
  'mustache',
  'github-models',
  'vscode-prompt',
  'generic',
  'none',
];

export interface TagMatch {
  /** The tag as written, e.g. `{{ user.name }}`, `{% if x %}`, `${input:topic}`. */
  start: number;
  end: number;
  /** What is inside the delimiters, trimmed (whitespace-control dashes removed). */
  inner: string;
  /** `{% … %}` statements and Mustache sections: control flow, not a value with a lookup path. */
  block: boolean;
  /** Substituted at request time but the same on every request of a session (`${workspaceFolder}`). */
  stable?: boolean;
}

export interface TemplateLanguage {
  engine: TemplateEngine;
  /**
   * Whether Markdown code spans and fences hold literal text. True where the file is Markdown read
   * by a tool that substitutes named references (VS Code prompt files) or where the engine is only
   * guessed (plain prompts); false where a real template engine renders the whole text (Jinja2
   * knows nothing of Markdown fences, so `{{ x }}` inside one is substituted too).
   */
  codeIsLiteral: boolean;
  /** The user's extra patterns (`promptLens.variablePatterns`): group 1 is the name. */
  userPatterns: readonly RegExp[];
}

/** Finds every tag of the language in `text` outside its literal regions, sorted, non-overlapping. */
export function findTags(text: string, language: TemplateLanguage): TagMatch[] {
  const literal = [...literalRanges(text, language)].sort((a, b) => a.start - b.start);
  const found: TagMatch[] = [];
  for (const tag of engineTags(text, language.engine)) found.push(tag);
  for (const pattern of language.userPatterns) {
    pattern.lastIndex = 0;
    for (const m of text.matchAll(pattern)) {
      if (m[0].length === 0) continue;
      const start = m.index ?? 0;
      found.push({ start, end: start + m[0].length, inner: (m[1] ?? m[0]).trim(), block: false });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  // One linear sweep: a tag overlapping an earlier kept one, or inside literal text, is dropped.
  const kept: TagMatch[] = [];
  let lastEnd = -1;
  let li = 0;
  for (const tag of found) {
    if (tag.start < lastEnd) continue;
    while (li < literal.length && (literal[li] as SourceRange).end <= tag.start) li++;
    const lit = literal[li];
    if (lit && lit.start < tag.end) continue;
    kept.push(tag);
    lastEnd = tag.end;
  }
  return kept;
}

/** Text the engine leaves as written: Markdown code where literal, Jinja raw blocks and comments, Mustache comments. */
function literalRanges(text: string, language: TemplateLanguage): SourceRange[] {
  const ranges = language.codeIsLiteral ? markdownCodeRanges(text) : [];
  if (language.engine === 'jinja2' || language.engine === 'generic') {
    ranges.push(...delimited(text, '{#', '#}'));
    ranges.push(...rawBlocks(text));
  }
  if (language.engine === 'mustache' || language.engine === 'generic') ranges.push(...delimited(text, '{{!', '}}'));
  return ranges;
}

/** `open … close` pairs found with indexOf: linear, and an unclosed opener ends the search. */
function delimited(text: string, open: string, close: string): SourceRange[] {
  const ranges: SourceRange[] = [];
  for (let at = text.indexOf(open); at !== -1;) {
    const end = text.indexOf(close, at + open.length);
    if (end === -1) break;
    ranges.push({ start: at, end: end + close.length });
    at = text.indexOf(open, end + close.length);
  }
  return ranges;
}

const RAW_OPEN = /\{%[-+]?[ \t]*raw[ \t]*[-+]?%\}/g;
const RAW_CLOSE = /\{%[-+]?[ \t]*endraw[ \t]*[-+]?%\}/g;

function rawBlocks(text: string): SourceRange[] {
  const ranges: SourceRange[] = [];
  RAW_OPEN.lastIndex = 0;
  for (let m = RAW_OPEN.exec(text); m; m = RAW_OPEN.exec(text)) {
    RAW_CLOSE.lastIndex = m.index + m[0].length;
    const close = RAW_CLOSE.exec(text);
    if (!close) break;
    ranges.push({ start: m.index, end: close.index + close[0].length });
    RAW_OPEN.lastIndex = close.index + close[0].length;
  }
  return ranges;
}

// Each written so that no character can be matched two ways (linear on an unclosed `{{` before
// megabytes of text).
const MUSTACHE_TAG = /\{\{(\{?)([^{}]*)\}\}(\}?)/g;
const JINJA_STATEMENT = /\{%((?:[^%{]|%(?!\})|\{(?!%))*)%\}/g;
// `${input:name}` or `${input:name:placeholder}`: the name is the variable; the placeholder only prompts the user.
const VSCODE_REFERENCE =
  /\$\{(?:(input:[^{}:\s]+)(?::[^{}]*)?|(selection|selectedText|file|fileBasename|fileDirname|fileBasenameNoExtension|workspaceFolder|workspaceFolderBasename))\}/g;
const WORKSPACE_CONSTANT = new Set(['workspaceFolder', 'workspaceFolderBasename']);

/** `{{ name }}`, `{{ a.b | filter }}`, `{{ f(x) }}`: an expression starting with a name; not `{{ a: 1 }}`, `{{}}`. */
const JINJA_EXPRESSION = /^[A-Za-z_][\w]*(?![\w.]*\s*:(?!:))/;
const GITHUB_MODELS_NAME = /^[A-Za-z_][\w.-]*$/;
const MUSTACHE_NAME = /^(?:[#^&/]\s*)?(?:[A-Za-z_][\w.-]*|\.)$/;

const trimMarkers = (inner: string): string =>
  inner
    .trim()
    .replace(/^[-+~]|[-+~]$/g, '')
    .trim();

function engineTags(text: string, engine: TemplateEngine): TagMatch[] {
  const tags: TagMatch[] = [];
  if (engine === 'none') return tags;
  if (engine === 'vscode-prompt') {
    for (const m of text.matchAll(VSCODE_REFERENCE)) {
      const start = m.index ?? 0;
      const inner = (m[1] ?? m[2]) as string;
      tags.push({
        start,
        end: start + m[0].length,
        inner,
        block: false,
        ...(WORKSPACE_CONSTANT.has(inner) ? { stable: true } : {}),
      });
    }
    return tags;
  }
  for (const m of text.matchAll(MUSTACHE_TAG)) {
    const start = m.index ?? 0;
    const triple = m[1] === '{' && m[3] === '}';
    // `{{{x}}` or `{{x}}}`: the odd brace is text, the tag is the double one.
    const tagStart = m[1] === '{' && !triple ? start + 1 : start;
    const tagEnd = m[3] === '}' && !triple ? start + m[0].length - 1 : start + m[0].length;
    const inner = trimMarkers(m[2] as string);
    const accepted = acceptExpression(engine, inner, text, tagStart);
    if (accepted) tags.push({ start: tagStart, end: tagEnd, inner, block: accepted === 'block' });
  }
  if (engine === 'jinja2' || engine === 'generic') {
    for (const m of text.matchAll(JINJA_STATEMENT)) {
      const start = m.index ?? 0;
      const inner = trimMarkers(m[1] as string);
      // A statement starts with a keyword: `{% if x %}`, `{% endfor %}`; not `{% 50 %}` or `{%}`.
      if (/^[A-Za-z_]/.test(inner)) tags.push({ start, end: start + m[0].length, inner, block: true });
    }
  }
  return tags;
}

/** Whether a `{{ … }}` tag is a variable of the engine: false, 'value', or 'block' (a section). */
function acceptExpression(
  engine: TemplateEngine,
  inner: string,
  text: string,
  start: number,
): false | 'value' | 'block' {
  switch (engine) {
    case 'github-models':
      return GITHUB_MODELS_NAME.test(inner) ? 'value' : false;
    case 'mustache':
      if (!MUSTACHE_NAME.test(inner)) return false;
      return /^[#^/]/.test(inner) ? 'block' : 'value';
    case 'jinja2':
      return JINJA_EXPRESSION.test(inner) ? 'value' : false;
    case 'generic':
      // `${{ matrix.os }}` is a GitHub Actions expression, written out as an example.
      if (text[start - 1] === '$') return false;
      if (/^[#^/]/.test(inner)) return MUSTACHE_NAME.test(inner) || /^#\w+\s+\S/.test(inner) ? 'block' : false;
      return JINJA_EXPRESSION.test(inner) ? 'value' : false;
    default:
      return false;
  }
}

/** The language of a format; Prompty's comes from its front matter (`template:`), read by the caller. */
export function templateLanguage(
  engine: TemplateEngine,
  userPatterns: readonly RegExp[],
  codeIsLiteral = engine === 'generic' || engine === 'vscode-prompt' || engine === 'none',
): TemplateLanguage {
  return { engine, codeIsLiteral, userPatterns };
}
