import type { ParsedPrompt, SourceRange, TemplateVariable } from '../prompt/types';
import { detectRegions } from './rag';
import { lastWhere, requestOrder } from './request';
import type { FindingSettings } from './settings';

/**
 * What changes from one request to the next, so a cached prefix cannot extend past it: a template
 * variable of the file's own template language (outside literal text such as code), a control
 * block around text (`{% if %}…{% endif %}`, a Mustache section), a retrieval slot, or what the
 * user declared dynamic (`promptLens.cache.dynamicPatterns`, `prompt-lens-dynamic` pragmas).
 */
export type DynamicKind = 'variable' | 'block' | 'retrieved context' | 'declared';

/** Literal text that looks like a value people template later; never a breaker, only an opt-in hint. */
export type HintKind = 'date' | 'time' | 'uuid' | 'id' | 'name' | 'literal retrieved context';

export interface DynamicSpan {
  kind: DynamicKind | HintKind;
  range: SourceRange;
  /** The text as written ("{{user_name}}", "2025-03-14"). */
  text: string;
  /** A heuristic look-alike in static text, not something substituted at request time. */
  hint?: true;
}

export interface DynamicOptions {
  /** Retrieved-context settings: slots are named, `rag.pattern` regions are dynamic, literal regions hints. */
  rag?: FindingSettings['rag'];
  /** Declared dynamic patterns (the setting and the file's pragmas), compiled with the `g` flag. */
  declared?: readonly RegExp[];
}

/** Dynamic spans of the file, sorted, overlaps merged (the one starting first names the merge). */
export function dynamicSpans(parsed: ParsedPrompt, text: string, options: DynamicOptions = {}): DynamicSpan[] {
  const slot = options.rag ? new RegExp(options.rag.slotPattern, 'i') : undefined;
  const spans: DynamicSpan[] = [];
  for (const v of parsed.variables) {
    if (v.stable) continue;
    const kind = slot?.test(v.name) ? 'retrieved context' : 'variable';
    spans.push({ kind, range: { ...v.range }, text: text.slice(v.range.start, v.range.end) });
  }
  spans.push(...controlBlocks(parsed.variables, text));
  for (const re of options.declared ?? []) spans.push(...matchesInMessages(parsed, text, re, 'declared'));
  if (options.rag?.pattern !== undefined) {
    const userRegions = detectRegions(parsed, text, { ...options.rag, tags: [], headings: [], slotPattern: '(?!)' });
    for (const r of userRegions) spans.push({ kind: 'retrieved context', range: r.range, text: r.marker });
  }
  return merged(spans, text);
}

const MONTH =
  '(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)';

/** Patterns with a `v` group mark only that group (the value after a label such as "User:"). */
const LOOK_ALIKES: Array<{ kind: HintKind; re: RegExp }> = [
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
 * Literal values that look like something a prompt author may template later (a date, an id, a
 * name after a label, a retrieved-context block written out) and are not inside a dynamic span.
 * Static text is the same on every request, so these are hints, never breakers.
 */
export function literalHints(
  parsed: ParsedPrompt,
  text: string,
  dynamic: readonly DynamicSpan[],
  rag?: FindingSettings['rag'],
): DynamicSpan[] {
  const hints: DynamicSpan[] = [];
  for (const { kind, re } of LOOK_ALIKES) hints.push(...matchesInMessages(parsed, text, re, kind));
  if (rag)
    for (const r of detectRegions(parsed, text, { ...rag, pattern: undefined }))
      if (r.kind !== 'slot') hints.push({ kind: 'literal retrieved context', range: r.range, text: r.marker });
  return outside(merged(hints, text), dynamic).map((h) => ({ ...h, hint: true as const }));
}

/** The spans of `a` that overlap none of `b` (both sorted and disjoint): one sweep. */
function outside(a: readonly DynamicSpan[], b: readonly DynamicSpan[]): DynamicSpan[] {
  const kept: DynamicSpan[] = [];
  let j = 0;
  for (const s of a) {
    while (j < b.length && (b[j] as DynamicSpan).range.end <= s.range.start) j++;
    const d = b[j];
    if (!d || d.range.start >= s.range.end) kept.push(s);
  }
  return kept;
}

/**
 * THE answer to "where does the static prefix end": the first dynamic span in the order the
 * request sends messages (system and developer messages first). Everything before it is the
 * same on every request and can be served from a prefix cache; nothing after it can. Cache
 * findings, the editor's cacheable-prefix marker and warm estimates all take it from here.
 */
export function firstDynamic(parsed: ParsedPrompt, spans: readonly DynamicSpan[]): DynamicSpan | undefined {
  for (const index of requestOrder(parsed)) {
    const { start, end } = (parsed.messages[index] as ParsedPrompt['messages'][number]).range;
    // Spans are sorted: the first one starting inside this message, by binary search.
    const first = spans[lastWhere(spans.length, (i) => (spans[i] as DynamicSpan).range.start < start) + 1];
    if (first && first.range.start < Math.max(end, start + 1)) return first;
  }
  return undefined;
}

/**
 * The spans with every retrieved-context region added, written-out ones included: a warm-cache
 * estimate must not count documents as cached even where this file holds a captured sample of them
 * (the next request retrieves others), so for warm figures these end the static prefix too.
 */
export function withRetrievedContext(
  parsed: ParsedPrompt,
  text: string,
  spans: readonly DynamicSpan[],
  rag: FindingSettings['rag'],
): DynamicSpan[] {
  const regions = detectRegions(parsed, text, rag).map((r): DynamicSpan => ({
    kind: 'retrieved context',
    range: { ...r.range },
    text: r.marker,
  }));
  return regions.length === 0 ? [...spans] : merged([...spans, ...regions], text);
}

/** Every match of `re` inside the messages (not front matter), a `v` group narrowing it to the value. */
function matchesInMessages(parsed: ParsedPrompt, text: string, re: RegExp, kind: DynamicSpan['kind']): DynamicSpan[] {
  const found: DynamicSpan[] = [];
  const pattern = new RegExp(re.source, re.flags.includes('d') ? re.flags : `${re.flags}d`);
  for (const message of parsed.messages) {
    const body = text.slice(0, message.range.end);
    pattern.lastIndex = message.range.start;
    for (let m = pattern.exec(body); m; m = pattern.exec(body)) {
      if (m[0].length === 0) {
        pattern.lastIndex++;
        continue;
      }
      const [start, end] = m.indices?.groups?.v ?? (m.indices?.[0] as [number, number]);
      found.push({ kind, range: { start, end }, text: text.slice(start, end) });
    }
  }
  return found;
}

/**
 * `{% if %}…{% endif %}`, `{% for %}…{% endfor %}` and Mustache `{{#x}}…{{/x}}` sections: the text
 * between depends on the data, so the whole block is dynamic. `{% endX %}` closes the innermost
 * open `{% X … %}`; unclosed statements stay single tags.
 */
/** Jinja statements that open no block. */
const SINGLE_TAGS = new Set(['else', 'elif', 'set', 'include', 'import', 'from', 'extends', 'do']);

function controlBlocks(variables: readonly TemplateVariable[], text: string): DynamicSpan[] {
  const blocks: DynamicSpan[] = [];
  const open: Array<{ keyword: string; start: number }> = [];
  // Per keyword, the indices in `open` of its unclosed tags: a closer finds its opener without a scan.
  const byKeyword = new Map<string, number[]>();
  for (const v of variables) {
    const tag = text.slice(v.range.start, v.range.end);
    const jinja = /^\{%[-+]?\s*(\w+)/.exec(tag);
    const mustache = /^\{\{\s*([#^/])\s*([\w.-]+)/.exec(tag);
    const keyword = jinja ? (jinja[1] as string) : mustache ? (mustache[2] as string) : undefined;
    if (keyword === undefined) continue;
    const closing = jinja ? keyword.startsWith('end') : mustache?.[1] === '/';
    if (!closing) {
      if (!jinja || !SINGLE_TAGS.has(keyword)) {
        let list = byKeyword.get(keyword);
        if (!list) byKeyword.set(keyword, (list = []));
        list.push(open.length);
        open.push({ keyword, start: v.range.start });
      }
      continue;
    }
    const at = byKeyword.get(jinja ? keyword.slice(3) : keyword)?.at(-1);
    if (at === undefined) continue;
    const { start } = open[at] as { start: number };
    // Close it and everything opened inside it (each tag is pushed and popped once).
    while (open.length > at) byKeyword.get((open.pop() as { keyword: string }).keyword)?.pop();
    blocks.push({ kind: 'block', range: { start, end: v.range.end }, text: text.slice(start, v.range.end) });
  }
  return blocks;
}

function merged(spans: DynamicSpan[], text: string): DynamicSpan[] {
  spans.sort((a, b) => a.range.start - b.range.start || b.range.end - a.range.end);
  const out: DynamicSpan[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.range.start < last.range.end) {
      if (s.range.end > last.range.end) {
        last.range.end = s.range.end;
        last.text = text.slice(last.range.start, last.range.end);
      }
    } else out.push({ ...s, range: { ...s.range } });
  }
  return out;
}
