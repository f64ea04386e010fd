import type { ParsedPrompt, SourceRange } from '../prompt/types';

/** Content that changes from call to call, so a cached prefix cannot extend past it. */
export type DynamicKind = 'variable' | 'date' | 'time' | 'uuid' | 'id' | 'name' | 'retrieved context';

export interface DynamicSpan {
  kind: DynamicKind;
  range: SourceRange;
  /** The text as written ("{{user_name}}", "2025-03-14"). */
  text: string;
}

const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';

/** Patterns with a `v` group mark only that group (the value after a label such as "User:"). */
const PATTERNS: Array<{ kind: DynamicKind; re: RegExp }> = [
  { kind: 'variable', re: /\{\{[^{}\n]*\}\}|\{%[^%\n]*%\}|\$\{[^{}\n]*\}/g },
  { kind: 'uuid', re: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi },
  { kind: 'date', re: /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b/g },
  { kind: 'date', re: /\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/g },
  {
    kind: 'date',
    re: new RegExp(`\\b${MONTH}\\.? \\d{1,2}(?:st|nd|rd|th)?,? \\d{4}\\b|\\b\\d{1,2} ${MONTH} \\d{4}\\b`, 'g'),
  },
  { kind: 'time', re: /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[AaPp][Mm])?\b/g },
  {
    kind: 'id',
    re: /\b(?:[A-Za-z_]*[Ii][Dd]|session|request|order|ticket|account)\b[ \t]*[:=#][ \t]*(?<v>[A-Za-z0-9_-]*\d[A-Za-z0-9_-]{2,})/g,
  },
  { kind: 'id', re: /\b[0-9a-f]{16,}\b|\b\d{9,}\b/g },
  {
    kind: 'name',
    re: /\b(?:[Uu]ser(?: ?name)?|[Cc]ustomer(?: name)?|[Nn]ame|[Cc]lient|[Pp]atient|[Ee]mployee)[ \t]*[:=][ \t]*(?<v>\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}\p{Ll}+){0,2})/gu,
  },
  { kind: 'name', re: /\b(?:Hello|Hi|Dear)[ \t]+(?<v>\p{Lu}\p{Ll}+(?:[ \t]+\p{Lu}\p{Ll}+)?)\b/gu },
];

/**
 * Dynamic spans of the file, sorted, overlaps merged (the one starting first wins). `extra` adds
 * spans found elsewhere, such as retrieved-context regions, which change with every query.
 */
export function detectDynamic(parsed: ParsedPrompt, text: string, extra: readonly DynamicSpan[] = []): DynamicSpan[] {
  const spans: DynamicSpan[] = [
    ...extra,
    ...parsed.variables.map((v): DynamicSpan => ({
      kind: 'variable',
      range: v.range,
      text: text.slice(v.range.start, v.range.end),
    })),
  ];
  // Compiled once per file, not per message (a file can have 50,000 messages).
  const patterns = PATTERNS.map(({ kind, re }) => ({ kind, pattern: new RegExp(re.source, `${re.flags}d`) }));
  for (const message of parsed.messages) {
    const body = text.slice(0, message.range.end);
    for (const { kind, pattern } of patterns) {
      pattern.lastIndex = message.range.start;
      for (let m = pattern.exec(body); m; m = pattern.exec(body)) {
        const [start, end] = m.indices?.groups?.v ?? (m.indices?.[0] as [number, number]);
        spans.push({ kind, range: { start, end }, text: text.slice(start, end) });
      }
    }
  }
  spans.sort((a, b) => a.range.start - b.range.start || b.range.end - a.range.end);
  const merged: DynamicSpan[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.range.start < last.range.end) {
      if (s.range.end > last.range.end) {
        last.range.end = s.range.end;
        last.text = text.slice(last.range.start, last.range.end);
      }
    } else merged.push({ ...s, range: { ...s.range } });
  }
  return merged;
}
