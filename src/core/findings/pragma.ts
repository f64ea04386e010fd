import { FINDING_CODES, type Finding, type FindingCode } from './types';

/**
 * In-file suppression. One syntax for every format, inside whatever comment the format has:
 *   <!-- prompt-lens-disable rag-budget cache-breaker -->   (Markdown, plain prompts)
 *   # prompt-lens-disable rag-budget                        (YAML, Prompty front matter)
 *   {# prompt-lens-disable #}                               (Jinja)
 * Codes are separated by spaces or commas; no code at all disables every finding in the file.
 */
export interface FilePragmas {
  all: boolean;
  codes: Set<FindingCode>;
  /** Words after the keyword that are not finding codes (worth a hint in the editor). */
  unknown: string[];
  /**
   * `prompt-lens-dynamic PATTERN`: a regular expression (the rest of the comment) whose matches
   * change per request, for values a template engine does not show (e.g. text a program splices in).
   */
  dynamic: RegExp[];
  /** Dynamic patterns that are not valid regular expressions, as written. */
  invalidDynamic: string[];
}

const PRAGMA = /prompt-lens-disable\b([^\n]*)/g;
const DYNAMIC_PRAGMA = /prompt-lens-dynamic[ \t]+([^\n]*)/g;
const COMMENT_CLOSE = /(-->|#}|\*\/|%}).*$/;

export function readPragmas(text: string): FilePragmas {
  const result: FilePragmas = { all: false, codes: new Set(), unknown: [], dynamic: [], invalidDynamic: [] };
  // Both pragmas start so; most files have none, and one search is cheaper than two regular expressions.
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; the expressions below find nothing then.
  if (!text.includes('prompt-lens-')) return result;
  for (const match of text.matchAll(DYNAMIC_PRAGMA)) {
    const source = (match[1] ?? '').replace(/[ \t]*(-->|#}|\*\/|%})[^\n]*$/, '').trim();
    if (source.length === 0) continue;
    try {
      result.dynamic.push(new RegExp(source, 'g'));
    } catch {
      result.invalidDynamic.push(source);
    }
  }
  for (const match of text.matchAll(PRAGMA)) {
    const words = (match[1] ?? '')
      .replace(COMMENT_CLOSE, '')
      .split(/[\s,]+/)
      .filter((w) => w.length > 0);
    if (words.length === 0) result.all = true;
    for (const word of words) {
      if ((FINDING_CODES as readonly string[]).includes(word)) result.codes.add(word as FindingCode);
      else result.unknown.push(word);
    }
  }
  return result;
}

export function suppressedBy(pragmas: FilePragmas, code: FindingCode): boolean {
  return pragmas.all || pragmas.codes.has(code);
}

/** Keeps findings that neither the settings nor the file's own pragmas switch off. */
export function applySuppression(
  findings: Finding[],
  disabled: readonly FindingCode[],
  pragmasOf: (file: string) => FilePragmas,
): Finding[] {
  return findings.filter((f) => !disabled.includes(f.code) && !suppressedBy(pragmasOf(f.file), f.code));
}
