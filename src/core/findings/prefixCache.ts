import { formatCount, formatMs, formatUsd, scaleUsd, usdDifference } from '../format';
import type { ParsedPrompt } from '../prompt/types';
import { Slicer } from '../slicer';
import type { Tokenizer } from '../tokenize/types';
import type { FindingCostModel } from './costModel';
import { PrefixIndex, type PrefixGroup, type PrefixGroupMember } from './prefixIndex';
import { lineColumn } from './request';
import type { FindingSettings } from './settings';
import type { Finding, RelatedLocation } from './types';

export { MAX_BREAKER_SPANS, type CacheBreaker, type NearMiss, type StaticPrefix } from './prefixIndex';

export interface PrefixCacheOptions {
  /** The primary target's tokenizer: prefixes are compared as its tokens, not as characters. */
  tokenizer: Tokenizer;
  costModel: FindingCostModel;
  settings: FindingSettings['cache'];
  /** When given, retrieval slots are named as such, `rag.pattern` regions are dynamic and literal regions hints. */
  rag?: FindingSettings['rag'];
  /**
   * false: `prompt-lens-dynamic` pragmas are not run. They are regular expressions from the file's own
   * text, and a hostile one could stall the analysis (an untrusted workspace's files).
   */
  filePatterns?: boolean;
}

/** A group member with what the cache saves it on the target: the index's tokens, costed. */
export interface GroupMember extends PrefixGroupMember {
  coldTtftMs: number;
  warmTtftMs: number;
  savedUsdPer1kCalls: number | null;
}

export interface CacheGroup extends PrefixGroup {
  members: GroupMember[];
}

/**
 * The prefix-cache findings: the workspace index (`prefixIndex.ts`: who shares which prefix, where it
 * is cut, what the cache rule serves) priced on the target's cost model and put into words.
 */
export class PrefixCacheAnalyser extends PrefixIndex {
  /** Costed groups per index group: the index keeps a group object until the next update. */
  private readonly costed = new WeakMap<PrefixGroup, CacheGroup>();
  private readonly related = new WeakMap<CacheGroup, RelatedLocation[]>();
  /** Each file's last costed member and related entry, reused while its figures are unchanged. */
  private readonly lastCosted = new Map<string, GroupMember>();
  private readonly lastRelated = new Map<string, { member: PrefixGroupMember; location: RelatedLocation }>();
  private readonly model: FindingCostModel;

  constructor(options: PrefixCacheOptions) {
    const { costModel, ...index } = options;
    super({ ...index, cacheRule: costModel.cacheRule });
    this.model = costModel;
  }

  override groups(): CacheGroup[] {
    return super.groups().map((g) => this.costGroup(g));
  }

  override groupOf(file: string): CacheGroup | undefined {
    const group = super.groupOf(file);
    return group && this.costGroup(group);
  }

  /** prefix-cache, cache-near-miss and cache-breaker findings for one file. */
  findingsFor(file: string): Finding[] {
    const findings: Finding[] = [];
    const model = this.model;
    const group = this.groupOf(file);
    const at = group ? group.members.findIndex((m) => m.file === file) : -1;
    const me = group?.members[at];
    if (group && me) {
      const others = group.members.length - 1;
      const related = this.relatedOf(group);
      findings.push({
        code: 'prefix-cache',
        severity: 'information',
        message:
          `Prefix cache: the first ${formatCount(me.sharedTokens)} tokens are shared with ${others === 1 ? '1 other file' : `${others} other files`} ` +
          `(${formatCount(me.cacheableTokens)} cacheable on ${model.label}); warm TTFT ${formatMs(me.warmTtftMs)} vs cold ${formatMs(me.coldTtftMs)} (${model.scenario}), ` +
          `saves ${formatUsd(me.savedUsdPer1kCalls)} per 1,000 calls; the shared prefix ends here`,
        file,
        range: { start: me.prefixEnd, end: me.prefixEnd },
        relatedFiles: related.filter((_, i) => i !== at),
        data: {
          sharedTokens: me.sharedTokens,
          cacheableTokens: me.cacheableTokens,
          groupSharedTokens: group.sharedTokens,
          coldTtftMs: me.coldTtftMs,
          warmTtftMs: me.warmTtftMs,
          ...(me.savedUsdPer1kCalls !== null ? { savedUsdPer1kCalls: me.savedUsdPer1kCalls } : {}),
          files: group.members.map((m) => m.file),
        },
      });
    }
    const miss = this.nearMiss(file);
    if (miss) {
      const line = lineColumn(this.textOf(miss.other) ?? '', miss.otherRange.start).line;
      findings.push({
        code: 'cache-near-miss',
        severity: 'information',
        message:
          `Near miss: the first message differs from ${miss.other} (line ${line}) here — ${quote(miss.text)} vs ${quote(miss.otherText)}; ` +
          `without this difference they would share ${formatCount(miss.sharedWithout)} tokens (${formatCount(miss.cacheableWithout)} cacheable) instead of ${formatCount(miss.sharedNow)}`,
        file,
        range: miss.range,
        relatedFiles: [{ file: miss.other, range: miss.otherRange, message: `differs here: ${quote(miss.otherText)}` }],
        data: {
          other: miss.other,
          sharedNow: miss.sharedNow,
          sharedWithout: miss.sharedWithout,
          cacheableNow: miss.cacheableNow,
          cacheableWithout: miss.cacheableWithout,
        },
      });
    }
    const total = this.promptTokens(file) ?? 0;
    for (const b of [...this.breakers(file), ...this.hints(file)]) {
      const saved = model.ttftMs(total, b.cacheableNow) - model.ttftMs(total, b.cacheableIfMoved);
      const before = `${b.dynamicBefore === 0 ? '' : `and the ${b.dynamicBefore === 1 ? 'dynamic part' : `${b.dynamicBefore} dynamic parts`} before it `}`;
      findings.push({
        code: b.hint ? 'dynamic-hint' : 'cache-breaker',
        severity: b.hint ? 'information' : 'warning',
        message: b.hint
          ? `Looks like a value you may template later: ${b.kind} ${quote(b.text)} is static text now (cacheable), but if it changed per request, ` +
            `it would come before ${formatCount(b.staticTokensAfter)} static tokens; keep such values after them ` +
            `(${formatCount(b.cacheableIfMoved)} tokens cacheable instead of ${formatCount(b.cacheableNow)}, warm TTFT ≈${formatMs(saved)} faster on ${model.label}, ${model.scenario})`
          : `Cache breaker: ${b.kind} ${quote(b.text)} changes per request and comes before ${formatCount(b.staticTokensAfter)} static tokens; moving it ` +
            `${before}after them would make ` +
            `${formatCount(b.cacheableIfMoved)} tokens cacheable instead of ${formatCount(b.cacheableNow)} (warm TTFT ≈${formatMs(saved)} faster on ${model.label}, ${model.scenario})`,
        file,
        range: b.range,
        data: {
          kind: b.kind,
          dynamicBefore: b.dynamicBefore,
          staticTokensAfter: b.staticTokensAfter,
          moveToOffset: b.moveTo,
          cacheableNow: b.cacheableNow,
          cacheableIfMoved: b.cacheableIfMoved,
          ttftSavedMs: saved,
        },
      });
    }
    return findings;
  }

  /**
   * The file's cache group's members as its prefix-cache finding names them (the others in
   * `relatedFiles`, all in `data.files`) and its own place among them: what `FindingPacker` sends once per group.
   */
  membersOf(file: string): { related: RelatedLocation[]; self: number } | undefined {
    const group = this.groupOf(file);
    if (!group) return undefined;
    const self = group.members.findIndex((m) => m.file === file);
    return self < 0 ? undefined : { related: this.relatedOf(group), self };
  }

  /**
   * Each member as the others' prefix-cache findings name it: built once per group, not once per
   * member (a group of a thousand files would otherwise build a million of them).
   */
  private relatedOf(group: CacheGroup): RelatedLocation[] {
    let related = this.related.get(group);
    if (!related) {
      related = group.members.map((m) => {
        // An edit changes one member: the others' entries (and their formatted messages) are kept.
        const last = this.lastRelated.get(m.file);
        if (last && last.member.prefixEnd === m.prefixEnd && last.member.sharedTokens === m.sharedTokens)
          return last.location;
        const location = {
          file: m.file,
          range: { start: m.prefixEnd, end: m.prefixEnd },
          message: `shares ${formatCount(m.sharedTokens)} tokens; its shared prefix ends here`,
        };
        this.lastRelated.set(m.file, { member: m, location });
        return location;
      });
      this.related.set(group, related);
    }
    return related;
  }

  private costGroup(group: PrefixGroup): CacheGroup {
    let costed = this.costed.get(group);
    if (!costed) {
      const model = this.model;
      costed = {
        ...group,
        members: group.members.map((m) => {
          // Costed once per distinct member: an edit re-costs the edited file, not its whole group.
          const last = this.lastCosted.get(m.file);
          if (
            last &&
            last.prefixEnd === m.prefixEnd &&
            last.sharedTokens === m.sharedTokens &&
            last.cacheableTokens === m.cacheableTokens &&
            last.promptTokens === m.promptTokens
          )
            return last;
          const member = {
            ...m,
            coldTtftMs: model.ttftMs(m.promptTokens, 0),
            warmTtftMs: model.ttftMs(m.promptTokens, m.cacheableTokens),
            savedUsdPer1kCalls: scaleUsd(
              usdDifference(model.costUsd(m.promptTokens, 0), model.costUsd(m.promptTokens, m.cacheableTokens)),
              1000,
            ),
          };
          this.lastCosted.set(m.file, member);
          return member;
        }),
      };
      this.costed.set(group, costed);
    }
    return costed;
  }

  override remove(file: string): void {
    super.remove(file);
    this.lastCosted.delete(file);
    this.lastRelated.delete(file);
  }
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return `“${flat.length > 40 ? `${flat.slice(0, 39)}…` : flat}”`;
}

export interface PromptSource {
  file: string;
  text: string;
  parsed: ParsedPrompt;
}

/**
 * Feeds many files to the analyser without holding the event loop for more than about `sliceMs`
 * at a time (plus one file's update, a few milliseconds): the editor's first workspace scan.
 * `pause` is how a slice ends (the analysis worker's background lane, which also waits for counts).
 */
export async function updateInSlices(
  analyser: PrefixCacheAnalyser,
  sources: Iterable<PromptSource>,
  sliceMs = 20,
  pause?: () => Promise<unknown>,
): Promise<void> {
  const slicer = new Slicer(sliceMs, pause);
  for (const s of sources) {
    analyser.update(s.file, s.text, s.parsed);
    await slicer.pause();
  }
}
