import type { ParsedPrompt, SourceRange } from '../prompt/types';
import type { Tokenizer } from '../tokenize/types';
import { findDuplicates } from './chunks';
import type { FindingCostModel } from './costModel';
import { formatCount, formatMs, formatPercent, formatUsd, usdDifference } from '../format';
import { filledVariablesByMessage, lineIndex, RenderMap } from './request';
import type { FindingSettings } from './settings';
import type { Finding } from './types';
import { isInstructionFormat } from '../prompt/formats';

export type RegionKind = 'xml' | 'heading' | 'slot' | 'pattern';

export interface DetectedRegion {
  kind: RegionKind;
  /** What marked it: `<documents>`, `## Context`, `{{context}}`, `/regex/`. */
  marker: string;
  range: SourceRange;
  /** Index into ParsedPrompt.messages. */
  message: number;
}

export interface RagRegion extends DetectedRegion {
  tokens: number;
  /** Of the whole request's input tokens. */
  share: number;
  /** TTFT and cost with the region minus without it, on the cost model's target. */
  addedTtftMs: number;
  addedCostUsd: number | null;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `<tag …>…</tag>` blocks, nesting of the same tag respected; unclosed tags are not regions. One
 * pass over the tags' edges with a stack per tag (a scan per opening tag was quadratic on nested or
 * unclosed tags); blocks in order of their start.
 */
function xmlBlocks(
  text: string,
  from: number,
  to: number,
  tags: readonly string[],
): Array<{ tag: string; range: SourceRange }> {
  // Every tag starts with "<": a message without one has none (the search below is the costlier).
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; the expression finds no tag then.
  if (tags.length === 0 || !hasWithin(text, '<', from, to)) return [];
  const edge = new RegExp(`<(/?)(${tags.map(escapeRegExp).join('|')})(?:\\s[^<>]*)?>`, 'gi');
  const blocks: Array<{ tag: string; range: SourceRange }> = [];
  const open = new Map<string, Array<{ tag: string; start: number }>>();
  const slice = text.slice(0, to);
  edge.lastIndex = from;
  for (let m = edge.exec(slice); m; m = edge.exec(slice)) {
    const tag = m[2] as string;
    const key = tag.toLowerCase();
    let stack = open.get(key);
    if (!stack) open.set(key, (stack = []));
    if (m[1] !== '/') stack.push({ tag, start: m.index });
    else {
      const opened = stack.pop();
      if (opened) blocks.push({ tag: opened.tag, range: { start: opened.start, end: m.index + m[0].length } });
    }
  }
  return blocks.sort((a, b) => a.range.start - b.range.start);
}

/** Whether `text` has `char` in [from, to) (searching no further: a file can have many messages). */
function hasWithin(text: string, char: string, from: number, to: number): boolean {
  // Stryker disable next-line MethodExpression: searching the whole text only makes the shortcuts above rarer.
  return text.slice(from, to).includes(char);
}

/** Markdown sections headed by one of the headings, up to the next heading of the same or a higher level. */
function headingSections(
  text: string,
  from: number,
  to: number,
  headings: readonly string[],
): Array<{ heading: string; range: SourceRange }> {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a shortcut; the expression finds no heading then.
  if (headings.length === 0 || !hasWithin(text, '#', from, to)) return [];
  const body = text.slice(0, to);
  const heading = new RegExp(`^(#{1,6})[ \\t]+(?:${headings.map(escapeRegExp).join('|')})\\b[^\\n]*`, 'gim');
  const anyHeading = /^(#{1,6})[ \t]/gm;
  const sections: Array<{ heading: string; range: SourceRange }> = [];
  heading.lastIndex = from;
  for (let m = heading.exec(body); m; m = heading.exec(body)) {
    const level = (m[1] as string).length;
    anyHeading.lastIndex = m.index + m[0].length;
    let end = to;
    for (let h = anyHeading.exec(body); h; h = anyHeading.exec(body)) {
      if ((h[1] as string).length <= level) {
        end = h.index;
        break;
      }
    }
    sections.push({ heading: m[0].trim(), range: { start: m.index, end } });
  }
  return sections;
}

/**
 * Every retrieved-context region of the file, outermost only (a nested one is part of its parent).
 * Instruction files (`AGENTS.md`, `*.instructions.md`…) are sent as written and retrieve nothing:
 * a "## Context" there is documentation, so only the user's own `rag.pattern` finds regions in them.
 */
export function detectRegions(parsed: ParsedPrompt, text: string, settings: FindingSettings['rag']): DetectedRegion[] {
  const found: DetectedRegion[] = [];
  const slot = new RegExp(settings.slotPattern, 'i');
  const variables = filledVariablesByMessage(parsed);
  const markup = !isInstructionFormat(parsed.format);
  parsed.messages.forEach((message, index) => {
    const { start, end } = message.range;
    if (markup) {
      for (const b of xmlBlocks(text, start, end, settings.tags))
        found.push({ kind: 'xml', marker: `<${b.tag}>`, range: b.range, message: index });
      for (const s of headingSections(text, start, end, settings.headings))
        found.push({ kind: 'heading', marker: s.heading, range: s.range, message: index });
    }
    for (const v of variables[index] ?? [])
      if (slot.test(v.name)) found.push({ kind: 'slot', marker: `{{${v.name}}}`, range: v.range, message: index });
    if (settings.pattern !== undefined) {
      const user = new RegExp(settings.pattern, 'gm');
      user.lastIndex = start;
      const body = text.slice(0, end);
      for (let m = user.exec(body); m; m = user.exec(body)) {
        if (m[0].length === 0) {
          user.lastIndex++;
          continue;
        }
        found.push({
          kind: 'pattern',
          marker: `/${settings.pattern}/`,
          range: { start: m.index, end: m.index + m[0].length },
          message: index,
        });
      }
    }
  });
  found.sort((a, b) => a.range.start - b.range.start || b.range.end - a.range.end);
  const outermost: DetectedRegion[] = [];
  for (const r of found) {
    const last = outermost[outermost.length - 1];
    if (!last || r.range.start >= last.range.end) outermost.push(r);
  }
  return outermost;
}

/** Pieces of a region's rendered text: listed XML child blocks when there are several, else paragraphs. */
function chunksOf(rendered: string, tags: readonly string[]): SourceRange[] {
  const inner = xmlBlocks(rendered, 1, rendered.length, tags);
  const children: SourceRange[] = [];
  // Blocks come in order of their start, so only the last child kept can contain the next.
  for (const b of inner) if (b.range.start >= (children[children.length - 1]?.end ?? 0)) children.push(b.range);
  if (children.length >= 2) return children;
  const paragraphs: SourceRange[] = [];
  const separator = /\n[ \t]*(?:-{3,}[ \t]*)?\n\s*/g;
  let at = 0;
  for (let m = separator.exec(rendered); m; m = separator.exec(rendered)) {
    paragraphs.push({ start: at, end: m.index });
    at = m.index + m[0].length;
  }
  paragraphs.push({ start: at, end: rendered.length });
  return paragraphs.filter((p) => rendered.slice(p.start, p.end).trim().length > 0);
}

export interface RagInput {
  file: string;
  text: string;
  parsed: ParsedPrompt;
  /** Input tokens of the whole request, as the prefix-cache analysis counts them. */
  promptTokens: number;
  tokenizer: Tokenizer;
  costModel: FindingCostModel;
  settings: FindingSettings['rag'];
}

export interface RagResult {
  regions: RagRegion[];
  findings: Finding[];
}

export function analyseRag(input: RagInput): RagResult {
  const { file, text, parsed, promptTokens: n, tokenizer, costModel: model, settings } = input;
  const maps = RenderMap.all(parsed, text);
  const lineOf = lineIndex(text);
  const findings: Finding[] = [];
  const regions: RagRegion[] = detectRegions(parsed, text, settings).map((r) => {
    const tokens = tokenizer.count((maps[r.message] as RenderMap).renderedSlice(r.range));
    return {
      ...r,
      tokens,
      share: n > 0 ? tokens / n : 0,
      addedTtftMs: model.ttftMs(n, 0) - model.ttftMs(n - tokens, 0),
      addedCostUsd: usdDifference(model.costUsd(n, 0), model.costUsd(n - tokens, 0)),
    };
  });

  if (model.contextWindow !== undefined && n > model.contextWindow) {
    const firstLine = text.indexOf('\n');
    findings.push({
      code: 'context-window',
      severity: 'error',
      message: `Prompt is ${formatCount(n)} tokens; the context window of ${model.label} is ${formatCount(model.contextWindow)} (${formatCount(n - model.contextWindow)} over)`,
      file,
      range: { start: 0, end: firstLine === -1 ? text.length : firstLine },
      data: { tokens: n, contextWindow: model.contextWindow },
    });
  }

  for (const r of regions) {
    const overTokens = r.tokens > settings.maxTokens;
    // A share alone matters only for a region big enough to cost something.
    const overShare = r.tokens >= settings.shareMinTokens && r.share > settings.maxShare;
    if (!overTokens && !overShare) continue;
    const budget = overTokens
      ? formatCount(settings.maxTokens)
      : `${formatPercent(settings.maxShare)} of the prompt for regions of ${formatCount(settings.shareMinTokens)}+ tokens`;
    findings.push({
      code: 'rag-budget',
      severity: 'warning',
      message: `Retrieved context: ${formatCount(r.tokens)} tokens (${formatPercent(r.share)} of the prompt) adds ≈${formatMs(r.addedTtftMs)} to the cold TTFT and ${formatUsd(r.addedCostUsd)}/call on ${model.label} (${model.scenario}); budget ${budget}`,
      file,
      range: r.range,
      data: {
        marker: r.marker,
        kind: r.kind,
        tokens: r.tokens,
        share: r.share,
        addedTtftMs: r.addedTtftMs,
        ...(r.addedCostUsd !== null ? { addedCostUsd: r.addedCostUsd } : {}),
        maxTokens: settings.maxTokens,
        maxShare: settings.maxShare,
        shareMinTokens: settings.shareMinTokens,
      },
    });
  }

  for (const r of regions)
    for (const f of duplicateFindings(input, r, maps[r.message] as RenderMap, lineOf)) findings.push(f);
  return { regions, findings };
}

function duplicateFindings(
  input: RagInput,
  region: DetectedRegion,
  map: RenderMap,
  lineOf: ReturnType<typeof lineIndex>,
): Finding[] {
  const { file, tokenizer, settings } = input;
  const regionStart = map.toRendered(region.range.start);
  const rendered = map.renderedSlice(region.range);
  const chunks = chunksOf(rendered, settings.tags)
    .map((c) => ({
      rendered: rendered.slice(c.start, c.end),
      range: { start: map.toSource(regionStart + c.start), end: map.toSource(regionStart + c.end) },
    }))
    .map((c) => ({ ...c, tokens: tokenizer.count(c.rendered) }))
    .filter((c) => c.tokens >= settings.minChunkTokens);
  return findDuplicates(
    chunks.map((c) => c.rendered),
    settings.duplicateSimilarity,
  ).map(({ later, earlier, similarity }) => {
    const dup = chunks[later] as (typeof chunks)[number];
    const original = chunks[earlier] as (typeof chunks)[number];
    const at = lineOf(original.range.start).line;
    const what =
      similarity === 1
        ? `Duplicate chunk: repeats the chunk at line ${at}`
        : `Near-duplicate chunk: ${formatPercent(similarity)} similar to the chunk at line ${at}`;
    // A slot's chunks all live in its sample value: point at the slot itself.
    const range = dup.range.start === dup.range.end ? region.range : dup.range;
    return {
      code: 'rag-duplicate' as const,
      severity: 'information' as const,
      message: `${what}; ${similarity === 1 ? '' : 'up to '}${formatCount(dup.tokens)} tokens wasted`,
      file,
      range,
      relatedFiles: [{ file, range: original.range, message: 'first occurrence' }],
      data: { tokensWasted: dup.tokens, similarity, firstLine: at },
    };
  });
}
