/**
 * The workspace prefix index: which prompts share which static prefixes, where each prefix is cut
 * (and by what dynamic part), and what the target's cache rule can serve of it. Pure data in tokens
 * and file offsets — no latency, price or wording: `prefixCache.ts` turns it into findings.
 */
import type { ParsedPrompt, SourceRange } from '../prompt/types';
import type { Tokenizer } from '../tokenize/types';
import { cacheableTokens, type CacheRule } from '../estimate/cacheRule';
import { dynamicSpans, firstDynamic, literalHints, withRetrievedContext, type DynamicSpan } from './dynamic';
import type { InstructionSource } from './instructions';
import { readPragmas } from './pragma';
import { isInstructionFormat } from '../prompt/formats';
import { charOffsetAfterTokens, TokenMemo, tokensBefore, type OffsetMemo } from './encoding';
import { buildRequest, lastWhere, RenderMap, type PromptRequest, type RequestMessage } from './request';
import type { FindingSettings } from './settings';
import { commonPrefix, hashTokens, realign } from './tokenSeq';

export interface PrefixIndexOptions {
  /** The primary target's tokenizer: prefixes are compared as its tokens, not as characters. */
  tokenizer: Tokenizer;
  /** The primary target's prefix cache; undefined: it has none, and no prefix reaches the threshold. */
  cacheRule: CacheRule | undefined;
  settings: FindingSettings['cache'];
  /** When given, retrieval slots are named as such, `rag.pattern` regions are dynamic and literal regions hints. */
  rag?: FindingSettings['rag'];
  /**
   * false: `prompt-lens-dynamic` pragmas are not run. They are regular expressions from the file's own
   * text, and a hostile one could stall the analysis (an untrusted workspace's files).
   */
  filePatterns?: boolean;
}

/** The part of a request that is the same on every call: up to the first dynamic element. */
export interface StaticPrefix {
  /** Request tokens before the first dynamic element (all of them when there is none). */
  tokens: number;
  /** Of those, what the target's cache rule can serve. */
  cacheableTokens: number;
  /** File offset where the static prefix ends. */
  endOffset: number;
  /** The dynamic element that ends it, if any. */
  dynamic?: DynamicSpan;
}

export interface PrefixGroupMember {
  file: string;
  promptTokens: number;
  /** Tokens this file shares with its closest group member (at least the group's common prefix). */
  sharedTokens: number;
  cacheableTokens: number;
  /** Offset in the file text where the shared prefix ends. */
  prefixEnd: number;
}

/** Files sharing a static prefix of at least the threshold, sorted by file name. */
export interface PrefixGroup {
  /** Tokens every member shares. */
  sharedTokens: number;
  /** Of those, what the target's cache rule can serve. */
  cacheableTokens: number;
  members: PrefixGroupMember[];
}

export interface NearMiss {
  file: string;
  other: string;
  /** The differing piece in each file (file offsets) and its text. */
  range: SourceRange;
  otherRange: SourceRange;
  text: string;
  otherText: string;
  sharedNow: number;
  sharedWithout: number;
  cacheableNow: number;
  cacheableWithout: number;
}

export interface CacheBreaker {
  file: string;
  kind: DynamicSpan['kind'];
  range: SourceRange;
  text: string;
  /** Static tokens right after the dynamic part, up to the next dynamic part. */
  staticTokensAfter: number;
  /** File offset where that static part ends: where the dynamic part could move to. */
  moveTo: number;
  cacheableNow: number;
  cacheableIfMoved: number;
  /** Dynamic parts before this one, which must move too. */
  dynamicBefore: number;
  /** A literal look-alike (a `dynamic-hint`), not something substituted at request time. */
  hint?: true;
}

interface Entry {
  file: string;
  text: string;
  parsed: ParsedPrompt;
  request: PromptRequest;
  /**
   * Content tokens of the first request message (the system message when there is one), interned:
   * files whose first messages are equal hold the same array, so telling twins apart is one comparison.
   */
  first: Int32Array;
  tailKey: string | undefined;
  /** Request tokens before the first dynamic element: no cache is shared beyond them. */
  staticTokens: number;
  /**
   * The request's input tokens as every surface counts them (a chat template's tokens included), when the caller
   * counted them: TTFT and cost are figured on these. Prefixes are matched on `request.tokens`.
   */
  inputTokens?: number;
  // Derived lazily and dropped with the entry when the file changes.
  maps?: RenderMap[];
  dynamic?: DynamicSpan[];
  breakers?: CacheBreaker[];
  hints?: CacheBreaker[];
  offsets?: Map<number, number>;
  /** Request messages (with their place in the request) in order of their range in the file. */
  byRange?: RankedMessage[];
  /** Its index in `order` as of PrefixIndex.stamp. */
  place?: { at: number; stamp: number };
  /** The files of the last group computed with this entry in it, in name order (kept across other files' updates). */
  named?: NameOrder;
}

/** A group's files sorted by name; `strict`: no two compare equal, so this set has exactly this order. */
interface NameOrder {
  names: string[];
  strict: boolean;
}

/** Files with one first message (one interned array) and one tail key; `least`: the first by name, when known. */
interface TailClass {
  entries: Set<Entry>;
  least?: Entry;
}

function leastOf(twins: TailClass): Entry {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a memo; file names differ, `<=` is `<`.
  if (!twins.least) for (const e of twins.entries) if (!twins.least || e.file < twins.least.file) twins.least = e;
  return twins.least as Entry;
}

interface RankedMessage {
  message: RequestMessage;
  rank: number;
}

/** Where the part of a request that is the same on every call ends. */
const TAIL_TOKENS = 32;
/**
 * Dynamic parts of a file considered as cache breakers, in request order: advice to move the 257th
 * dynamic part and every one before it helps nobody, and each costs a token-offset lookup.
 */
export const MAX_BREAKER_SPANS = 256;
/** Distinct first messages with the same ending looked at per near-miss question. */
const MAX_BUCKET_PAIRS = 16;
/** `String.prototype.localeCompare` without arguments is this collator's compare. */
const COLLATOR = new Intl.Collator();

/**
 * Workspace-wide prefix analysis. Requests are kept sorted by token sequence, so files sharing a
 * prefix are neighbours and the longest common prefix of neighbours says who can share a cache.
 * Updating one file re-encodes only that file and touches only its neighbours; groups, near misses
 * and cache breakers are read off the sorted order on demand.
 */
export class PrefixIndex {
  private readonly entries = new Map<string, Entry>();
  /** The instruction-format entries, in the order `entries` holds them: the findings of every edit ask for them. */
  private readonly instructions = new Set<Entry>();
  private readonly order: Entry[] = [];
  /** lcp[i] = common prefix of order[i - 1] and order[i]; lcp[0] = 0. */
  private readonly lcp: number[] = [];
  /** Files whose first message ends the same way: near-miss candidates that sorting keeps apart. */
  private readonly tails = new Map<string, Map<Int32Array, TailClass>>();
  /** Distinct first messages by hash, with how many entries hold each (see Entry.first). */
  private readonly firsts = new Map<string, Array<{ tokens: Int32Array; holders: number }>>();
  private readonly memo: TokenMemo;
  private readonly offsetMemo: OffsetMemo = new Map();
  /** Groups by the first index of their run in `order`, until the next update (a report asks per file). */
  private readonly groupCache = new Map<number, PrefixGroup>();
  /** Bumped by every change of `order`: an entry's remembered place holds while it is unchanged. */
  private stamp = 0;
  private readonly declared: RegExp[];

  constructor(private readonly options: PrefixIndexOptions) {
    this.memo = new TokenMemo(options.tokenizer);
    this.declared = options.settings.dynamicPatterns.map((p) => new RegExp(p, 'g'));
  }

  /** Shared prefixes below this are not reported: the larger of the cache rule's minimum and the setting. */
  get threshold(): number {
    const rule = this.options.cacheRule;
    return rule ? Math.max(rule.minTokens, this.options.settings.minSharedTokens) : Infinity;
  }

  /** `inputTokens`: the file's count as the editor and the report have it (see Entry.inputTokens). */
  update(file: string, text: string, parsed: ParsedPrompt, inputTokens?: number): void {
    this.remove(file);
    this.groupCache.clear();
    const request = buildRequest(parsed, this.memo);
    const head = request.messages[0];
    const first = this.intern(head ? request.tokens.subarray(head.tokenStart, head.tokenEnd) : new Int32Array(0));
    const tailKey =
      first.length >= TAIL_TOKENS ? hashTokens(first, first.length - TAIL_TOKENS, first.length) : undefined;
    const entry: Entry = { file, text, parsed, request, first, tailKey, staticTokens: request.tokens.length };
    if (inputTokens !== undefined) entry.inputTokens = inputTokens;
    const dynamic = firstDynamic(parsed, this.dynamicOf(entry));
    if (dynamic) entry.staticTokens = this.tokenIndexAt(entry, dynamic.range.start);
    this.entries.set(file, entry);
    if (isInstructionFormat(parsed.format)) this.instructions.add(entry);
    const at = this.lowerBound(entry);
    this.order.splice(at, 0, entry);
    this.stamp++;
    this.lcp.splice(at, 0, 0);
    this.refreshLcp(at);
    this.refreshLcp(at + 1);
    if (tailKey !== undefined) {
      let bucket = this.tails.get(tailKey);
      if (!bucket) this.tails.set(tailKey, (bucket = new Map()));
      let twins = bucket.get(first);
      if (!twins) bucket.set(first, (twins = { entries: new Set() }));
      twins.entries.add(entry);
      // Stryker disable next-line EqualityOperator: file names differ: `<=` is `<`.
      if (twins.least && entry.file < twins.least.file) twins.least = entry;
    }
  }

  remove(file: string): void {
    const entry = this.entries.get(file);
    if (!entry) return;
    this.groupCache.clear();
    this.entries.delete(file);
    this.instructions.delete(entry);
    const at = this.indexOf(entry);
    this.order.splice(at, 1);
    this.stamp++;
    this.lcp.splice(at, 1);
    this.refreshLcp(at);
    if (entry.tailKey !== undefined) {
      // update() put every entry with a tail key in its bucket and class.
      const bucket = this.tails.get(entry.tailKey) as Map<Int32Array, TailClass>;
      const twins = bucket.get(entry.first) as TailClass;
      twins.entries.delete(entry);
      // Stryker disable next-line ConditionalExpression: forgetting the least always only makes leastOf look again.
      if (twins.least === entry) delete twins.least;
      if (twins.entries.size === 0) bucket.delete(entry.first);
      if (bucket.size === 0) this.tails.delete(entry.tailKey);
    }
    this.release(entry.first);
  }

  /** The shared array for these first-message tokens (equal content, same array). */
  private intern(first: Int32Array): Int32Array {
    const key = hashTokens(first, 0, first.length);
    let same = this.firsts.get(key);
    if (!same) this.firsts.set(key, (same = []));
    // Equal keys are equal lengths (hashTokens' key starts with it): equal content is a full common prefix.
    let held = same.find((s) => commonPrefix(s.tokens, first) === first.length);
    if (!held) same.push((held = { tokens: first, holders: 0 }));
    held.holders++;
    return held.tokens;
  }

  private release(first: Int32Array): void {
    const key = hashTokens(first, 0, first.length);
    // Every entry's first message was interned by update() and is held until this release.
    const same = this.firsts.get(key) as Array<{ tokens: Int32Array; holders: number }>;
    // Two arrays share a key only after a hash collision; which one's count drops first then costs memory at most.
    // Stryker disable next-line ConditionalExpression: as said.
    const at = same.findIndex((s) => s.tokens === first);
    if (--(same[at] as { holders: number }).holders === 0) same.splice(at, 1);
    if (same.length === 0) this.firsts.delete(key);
  }

  files(): string[] {
    return this.order.map((e) => e.file);
  }

  /** Instruction files with their parse and content tokens (what the always-on budget adds up). */
  instructionSources(): InstructionSource[] {
    const sources: InstructionSource[] = [];
    for (const e of this.instructions)
      sources.push({
        file: e.file,
        parsed: e.parsed,
        tokens: e.request.messages.reduce((n, m) => n + m.tokenEnd - m.tokenStart, 0),
      });
    return sources;
  }

  /** The text this file was last analysed with. */
  textOf(file: string): string | undefined {
    return this.entries.get(file)?.text;
  }

  /** The file's input tokens: the caller's count when it gave one, else the request's token stream. */
  promptTokens(file: string): number | undefined {
    const entry = this.entries.get(file);
    return entry && (entry.inputTokens ?? entry.request.tokens.length);
  }

  /** Every group of two or more files sharing at least `threshold` tokens. */
  groups(): PrefixGroup[] {
    const groups: PrefixGroup[] = [];
    for (let i = 0; i < this.order.length; i++) {
      const [lo, hi] = this.runAround(i);
      if (hi > lo) groups.push(this.groupOver(lo, hi));
      i = hi;
    }
    return groups;
  }

  groupOf(file: string): PrefixGroup | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    const [lo, hi] = this.runAround(this.indexOf(entry));
    return hi > lo ? this.groupOver(lo, hi) : undefined;
  }

  /** The near miss with the largest gain for this file, if any. */
  nearMiss(file: string): NearMiss | undefined {
    const entry = this.entries.get(file);
    if (!entry || entry.first.length === 0) return undefined;
    const at = this.indexOf(entry);
    const candidates = new Set<Entry>(
      [this.order[at - 1], this.order[at + 1]].filter((e): e is Entry => e !== undefined),
    );
    // Files whose first message ends the same way, one per distinct first message (twins of each
    // other would give the same near miss): the first file by name of each, the first
    // MAX_BUCKET_PAIRS of those by name, so the answer does not depend on the order files came in.
    // Twins of this file (the same first message, or one that starts with it) are group members,
    // not near misses. A workspace of thousands of files sharing a system prompt costs one step per
    // distinct first message, not one per file.
    const others: Entry[] = [];
    for (const [first, twins] of entry.tailKey === undefined ? [] : (this.tails.get(entry.tailKey) ?? [])) {
      if (first === entry.first) continue;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: equal content is one array, skipped above.
      if (first.length > entry.first.length && commonPrefix(first, entry.first) === entry.first.length) continue;
      others.push(leastOf(twins));
    }
    others.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    for (const other of others.slice(0, MAX_BUCKET_PAIRS)) candidates.add(other);
    let best: NearMiss | undefined;
    for (const other of candidates) {
      const miss = this.nearMissWith(entry, other);
      if (!miss) continue;
      const gain = miss.cacheableWithout - miss.cacheableNow;
      const bestGain = best ? best.cacheableWithout - best.cacheableNow : -Infinity;
      // Equal gains (twins of the other file) go to the first file by name: the finding must not
      // depend on the order the workspace was scanned in.
      // A gain equal to a finite best one means there is a best (gains are finite).
      if (gain > bestGain || (gain === bestGain && miss.other < (best as NearMiss).other)) best = miss;
    }
    return best;
  }

  /**
   * The static prefix of a file's request: up to its first dynamic element (`firstDynamic`), in
   * tokens of the request and as a file offset. What a warm cache can serve on every call.
   * `endAtRetrievedContext`: a retrieved-context region written out in the file (an XML block, a
   * "Context" heading) ends it too, as warm estimates need; without it, literal text is static.
   */
  staticPrefix(file: string, options: { endAtRetrievedContext?: boolean } = {}): StaticPrefix | undefined {
    const entry = this.entries.get(file);
    if (!entry) return undefined;
    const spans =
      options.endAtRetrievedContext && this.options.rag
        ? withRetrievedContext(entry.parsed, entry.text, this.dynamicOf(entry), this.options.rag)
        : this.dynamicOf(entry);
    const dynamic = firstDynamic(entry.parsed, spans);
    const total = entry.request.tokens.length;
    const tokens = dynamic ? this.tokenIndexAt(entry, dynamic.range.start) : total;
    return {
      tokens,
      cacheableTokens: cacheableTokens(tokens, total, this.options.cacheRule),
      endOffset: dynamic ? dynamic.range.start : this.sourceOffset(entry, total),
      ...(dynamic ? { dynamic } : {}),
    };
  }

  /** Dynamic parts placed before a long static part (cached per file version). */
  breakers(file: string): CacheBreaker[] {
    const entry = this.entries.get(file);
    if (!entry) return [];
    entry.breakers ??= this.findBreakers(entry, this.dynamicOf(entry));
    return entry.breakers;
  }

  /** Literal look-alikes (dates, ids, names) that would break the cache if templated (`cache.dynamicHints`). */
  hints(file: string): CacheBreaker[] {
    const entry = this.entries.get(file);
    if (!entry || !this.options.settings.dynamicHints) return [];
    if (!entry.hints) {
      const dynamic = this.dynamicOf(entry);
      const all = [...dynamic, ...literalHints(entry.parsed, entry.text, dynamic, this.options.rag)];
      entry.hints = this.findBreakers(entry, all).filter((b) => b.hint);
    }
    return entry.hints;
  }

  /**
   * Where the entry sorts (by its request tokens in `compareTokens` order, then by file name), by
   * binary search that remembers how many first tokens it
   * shares with both ends of the range: every entry in between shares at least the smaller of the
   * two, so each comparison starts there. Thousands of files with one 3,000-token system prompt
   * otherwise cost 3,000 token comparisons per step.
   */
  private lowerBound(entry: Entry): number {
    const x = entry.request.tokens;
    let lo = 0;
    let hi = this.order.length;
    // Tokens shared with order[lo - 1] and with order[hi] (0 where there is none).
    let sharedLo = 0;
    let sharedHi = 0;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const other = this.order[mid] as Entry;
      const y = other.request.tokens;
      let k = Math.min(sharedLo, sharedHi);
      const n = Math.min(x.length, y.length);
      // Past both ends undefined === undefined stops `<=` at n + 1: not below n, no other result.
      // Stryker disable next-line EqualityOperator: equivalent, see the line above.
      while (k < n && x[k] === y[k]) k++;
      const order =
        k < n
          ? (y[k] as number) - (x[k] as number)
          : y.length - x.length || (other.file < entry.file ? -1 : other.file > entry.file ? 1 : 0);
      if (order < 0) {
        lo = mid + 1;
        sharedLo = k;
      } else {
        hi = mid;
        sharedHi = k;
      }
    }
    return lo;
  }

  private indexOf(entry: Entry): number {
    // Between two updates the order stands still: a findings pass asks each file's place several times.
    // Stryker disable next-line ConditionalExpression: a memo; the search finds the same place again.
    if (entry.place?.stamp === this.stamp) return entry.place.at;
    const at = this.lowerBound(entry);
    // Stryker disable next-line ObjectLiteral: an empty memo is never current; the search finds the same place again.
    entry.place = { at, stamp: this.stamp };
    if (this.order[at] !== entry) throw new Error(`prefix index out of order at ${entry.file}`);
    return at;
  }

  /** Neighbours share what both send identically and statically: never past either one's first dynamic element. */
  private refreshLcp(i: number): void {
    if (i >= this.order.length) return;
    if (i === 0) {
      this.lcp[i] = 0;
      return;
    }
    const a = this.order[i - 1] as Entry;
    const b = this.order[i] as Entry;
    this.lcp[i] = Math.min(commonPrefix(a.request.tokens, b.request.tokens), a.staticTokens, b.staticTokens);
  }

  /** The maximal run of neighbours around i whose adjacent common prefixes reach the threshold. */
  private runAround(i: number): [number, number] {
    const t = this.threshold;
    let lo = i;
    while (lo > 0 && (this.lcp[lo] as number) >= t) lo--;
    let hi = i;
    while (hi + 1 < this.order.length && (this.lcp[hi + 1] as number) >= t) hi++;
    return [lo, hi];
  }

  private groupOver(lo: number, hi: number): PrefixGroup {
    let group = this.groupCache.get(lo);
    if (!group) this.groupCache.set(lo, (group = this.computeGroup(lo, hi)));
    return group;
  }

  private computeGroup(lo: number, hi: number): PrefixGroup {
    const rule = this.options.cacheRule;
    let common = Infinity;
    for (let k = lo + 1; k <= hi; k++) common = Math.min(common, this.lcp[k] as number);
    const members: PrefixGroupMember[] = [];
    let minTokens = Infinity;
    for (let k = lo; k <= hi; k++) {
      const entry = this.order[k] as Entry;
      const n = entry.request.tokens.length;
      minTokens = Math.min(minTokens, n);
      const shared = Math.max(k > lo ? (this.lcp[k] as number) : 0, k < hi ? (this.lcp[k + 1] as number) : 0);
      members.push({
        file: entry.file,
        promptTokens: entry.inputTokens ?? n,
        sharedTokens: shared,
        cacheableTokens: cacheableTokens(shared, n, rule),
        prefixEnd: this.sourceOffset(entry, shared),
      });
    }
    return {
      sharedTokens: common,
      cacheableTokens: cacheableTokens(common, minTokens, rule),
      members: this.byName(members, lo, hi),
    };
  }

  /**
   * The members sorted by file name. An edit changes one file of a group, not the group's files: their
   * order from the last time any of them was in a group is reused when the set is the same (the group
   * of a thousand files is then not sorted again after each keystroke).
   */
  private byName(members: PrefixGroupMember[], lo: number, hi: number): PrefixGroupMember[] {
    const byFile = new Map(members.map((m) => [m.file, m]));
    for (const k of [lo, lo + 1]) {
      const last = (this.order[k] as Entry).named;
      if (!last?.strict || last.names.length !== members.length) continue;
      const reordered: PrefixGroupMember[] = [];
      for (const name of last.names) {
        const m = byFile.get(name);
        if (!m) break;
        reordered.push(m);
      }
      if (reordered.length === members.length) return this.remember(reordered, last, lo, hi);
    }
    // What localeCompare does, without looking the collator up again for each of a large group's comparisons.
    members.sort((a, b) => COLLATOR.compare(a.file, b.file));
    let strict = true;
    for (let i = 1; i < members.length && strict; i++)
      strict = COLLATOR.compare((members[i - 1] as PrefixGroupMember).file, (members[i] as PrefixGroupMember).file) < 0;
    return this.remember(members, { names: members.map((m) => m.file), strict }, lo, hi);
  }

  private remember(members: PrefixGroupMember[], named: NameOrder, lo: number, hi: number): PrefixGroupMember[] {
    for (let k = lo; k <= hi; k++) (this.order[k] as Entry).named = named;
    return members;
  }

  private mapsOf(entry: Entry): RenderMap[] {
    entry.maps ??= RenderMap.all(entry.parsed, entry.text);
    return entry.maps;
  }

  /** File offset after the first `k` request tokens. */
  private sourceOffset(entry: Entry, k: number): number {
    entry.offsets ??= new Map();
    let offset = entry.offsets.get(k);
    if (offset === undefined) entry.offsets.set(k, (offset = this.computeSourceOffset(entry, k)));
    return offset;
  }

  private computeSourceOffset(entry: Entry, k: number): number {
    const { request, parsed } = entry;
    // Request messages are in token order: the first whose end reaches k, by binary search.
    const first = lastWhere(request.messages.length, (i) => (request.messages[i] as RequestMessage).tokenEnd < k) + 1;
    const message = request.messages[first] ?? request.messages[request.messages.length - 1];
    if (!message) return 0;
    const rendered = (parsed.messages[message.index] as ParsedPrompt['messages'][number]).rendered;
    const offset = charOffsetAfterTokens(
      this.options.tokenizer,
      rendered,
      message.encoded,
      Math.max(0, k - message.tokenStart),
      this.offsetMemo,
    );
    return (this.mapsOf(entry)[message.index] as RenderMap).toSource(offset);
  }

  /** Request token index at which a file offset's text starts. */
  private tokenIndexAt(entry: Entry, sourceOffset: number): number {
    const { request, parsed } = entry;
    const message = this.messageAt(entry, sourceOffset)?.message;
    if (!message) return request.tokens.length;
    const rendered = (parsed.messages[message.index] as ParsedPrompt['messages'][number]).rendered;
    const renderedOffset = (this.mapsOf(entry)[message.index] as RenderMap).toRendered(sourceOffset);
    return message.tokenStart + tokensBefore(this.options.tokenizer, rendered, message.encoded, renderedOffset);
  }

  /**
   * The request message whose range in the file holds the offset (the earlier in the request where
   * two ranges touch there), by binary search over the messages ordered by range.
   */
  private messageAt(entry: Entry, sourceOffset: number): RankedMessage | undefined {
    const rangeOf = (m: RequestMessage) => (entry.parsed.messages[m.index] as ParsedPrompt['messages'][number]).range;
    entry.byRange ??= entry.request.messages
      .map((message, rank) => ({ message, rank }))
      .sort((a, b) => rangeOf(a.message).start - rangeOf(b.message).start);
    const sorted = entry.byRange;
    const at = lastWhere(sorted.length, (i) => rangeOf((sorted[i] as RankedMessage).message).start <= sourceOffset);
    let found: RankedMessage | undefined;
    for (const m of [sorted[at - 1], sorted[at]]) {
      if (!m || sourceOffset < rangeOf(m.message).start || sourceOffset > rangeOf(m.message).end) continue;
      if (!found || m.rank < found.rank) found = m;
    }
    return found;
  }

  private dynamicOf(entry: Entry): DynamicSpan[] {
    entry.dynamic ??= dynamicSpans(entry.parsed, entry.text, {
      ...(this.options.rag ? { rag: this.options.rag } : {}),
      declared:
        this.options.filePatterns === false ? this.declared : [...this.declared, ...readPragmas(entry.text).dynamic],
    });
    return entry.dynamic;
  }

  /** Whether a differing piece (possibly empty: an insertion point) overlaps a dynamic part of its file. */
  private touchesDynamic(entry: Entry, range: SourceRange): boolean {
    const end = Math.max(range.end, range.start + 1);
    return this.dynamicOf(entry).some((s) => s.range.start < end && s.range.end >= range.start);
  }

  private nearMissWith(a: Entry, b: Entry): NearMiss | undefined {
    // Equal first messages are one interned array (see Entry.first): no difference to look at.
    // Stryker disable next-line ConditionalExpression: a shortcut; the next line says the same of equal messages.
    if (a.first === b.first) return undefined;
    const d = commonPrefix(a.first, b.first);
    if (d >= Math.min(a.first.length, b.first.length)) return undefined;
    const gap = realign(a.first, b.first, d, this.options.settings.nearMissMaxGap);
    if (!gap) return undefined;
    const rule = this.options.cacheRule;
    const headA = (a.request.messages[0] as PromptRequest['messages'][number]).tokenStart;
    const headB = (b.request.messages[0] as PromptRequest['messages'][number]).tokenStart;
    // Neither side can share past its first dynamic element, whatever the text says.
    const staticBoth = Math.min(a.staticTokens, b.staticTokens);
    const sharedNow = Math.min(commonPrefix(a.request.tokens, b.request.tokens), staticBoth);
    const sharedWithout = Math.min(headA + d + gap.matched, staticBoth);
    const n = Math.min(a.request.tokens.length, b.request.tokens.length);
    const cacheableNow = cacheableTokens(sharedNow, n, rule);
    const cacheableWithout = cacheableTokens(sharedWithout, n, rule);
    if (cacheableWithout < this.threshold || cacheableWithout - cacheableNow < this.threshold) return undefined;
    const range = trimmed(a.text, {
      start: this.sourceOffset(a, headA + d),
      end: this.sourceOffset(a, headA + d + gap.skipA),
    });
    const otherRange = trimmed(b.text, {
      start: this.sourceOffset(b, headB + d),
      end: this.sourceOffset(b, headB + d + gap.skipB),
    });
    // A dynamic value (a date, a variable) is a cache breaker, reported as such, not a near miss.
    if (this.touchesDynamic(a, range) || this.touchesDynamic(b, otherRange)) return undefined;
    return {
      file: a.file,
      other: b.file,
      range,
      otherRange,
      text: a.text.slice(range.start, range.end),
      otherText: b.text.slice(otherRange.start, otherRange.end),
      sharedNow,
      sharedWithout,
      cacheableNow,
      cacheableWithout,
    };
  }

  /**
   * Spans (sorted by offset) placed before a static part worth caching; the first one in request
   * order sets what is cacheable now.
   */
  private findBreakers(entry: Entry, dynamic: readonly DynamicSpan[]): CacheBreaker[] {
    const rule = this.options.cacheRule;
    const total = entry.request.tokens.length;
    // In request order (system messages first), the first MAX_BREAKER_SPANS and the one after them:
    // each token index costs an encoding of part of a chunk, and 400,000 of them took seconds.
    const spans = dynamic
      .map((span) => ({ span, rank: this.messageAt(entry, span.range.start)?.rank ?? Infinity }))
      .sort((x, y) => x.rank - y.rank || x.span.range.start - y.span.range.start)
      .slice(0, MAX_BREAKER_SPANS + 1)
      .map(({ span }) => ({
        span,
        start: this.tokenIndexAt(entry, span.range.start),
        end: this.tokenIndexAt(entry, span.range.end),
      }))
      .sort((x, y) => x.start - y.start);
    const breakers: CacheBreaker[] = [];
    const first = spans[0];
    if (!first) return breakers;
    const cacheableNow = cacheableTokens(first.start, total, rule);
    let dynamicBefore = 0;
    spans.slice(0, MAX_BREAKER_SPANS).forEach(({ span, start, end }, i) => {
      const next = spans[i + 1]?.start ?? total;
      const staticAfter = Math.max(0, next - end);
      const staticBefore = start - dynamicBefore;
      dynamicBefore += end - start;
      const cacheableIfMoved = cacheableTokens(staticBefore + staticAfter, total, rule);
      // Worth a warning when the static part after it is long on its own, or joins the static text
      // before it into a prefix that gains at least the threshold over moving only earlier parts.
      const gain = cacheableIfMoved - cacheableTokens(staticBefore, total, rule);
      const worthIt = staticAfter >= this.threshold || gain >= this.threshold;
      const moveTo = spans[i + 1]?.span.range.start ?? this.sourceOffset(entry, total);
      if (worthIt && cacheableIfMoved > cacheableNow)
        breakers.push({
          file: entry.file,
          kind: span.kind,
          range: span.range,
          text: span.text,
          staticTokensAfter: staticAfter,
          moveTo,
          cacheableNow,
          cacheableIfMoved,
          dynamicBefore: i,
          ...(span.hint ? { hint: true as const } : {}),
        });
    });
    return breakers;
  }
}

/** A token range without its leading and trailing whitespace (BPE tokens often start with a space). */
function trimmed(text: string, range: SourceRange): SourceRange {
  let { start, end } = range;
  while (start < end && /\s/.test(text[start] as string)) start++;
  while (end > start && /\s/.test(text[end - 1] as string)) end--;
  return { start, end };
}
