import type { Finding, RelatedLocation } from './types';

/**
 * Compact transfer of findings between threads. Each prefix-cache finding names every other member
 * of its cache group (`relatedFiles`, and the group's files in `data.files`): at 10,000 files in groups
 * of hundreds that is millions of entries, which the structured clone copied member by member and the
 * receiving thread (the extension host) decoded in one go. Packed, a group's members travel once, as a
 * table, and each finding names its group and its own place in it; `FindingUnpacker` rebuilds exactly
 * the findings that were packed, when a surface asks for them.
 */

/** A cache group's members as its prefix-cache findings name them, in the group's (file name) order. */
export interface MemberTable {
  id: number;
  related: RelatedLocation[];
}

/** Where a finding's group lives: `self` is the finding's own file's place among the members. */
export interface MemberRef {
  table: number;
  self: number;
}

/** A finding as sent: unchanged, or a prefix-cache finding without its member lists and with `members`. */
export type PackedFinding = Finding | (Omit<Finding, 'relatedFiles'> & { members: MemberRef });

/** One message: the tables not sent before, then findings that may name them (or earlier ones). */
export interface PackedFindings {
  tables: MemberTable[];
  findings: PackedFinding[];
}

/** What the packer needs from the analyser: each file's group members as its findings name them (prefixCache.ts). */
export interface MemberSource {
  membersOf(file: string): { related: RelatedLocation[]; self: number } | undefined;
}

export class FindingPacker {
  private readonly ids = new WeakMap<RelatedLocation[], number>();
  private next = 0;

  constructor(private readonly source: MemberSource) {}

  /**
   * The findings with each prefix-cache finding's member lists replaced by a reference, when they are
   * exactly its group's (else the finding goes as it is); a group's table goes with the first message
   * that names it.
   */
  pack(findings: readonly Finding[]): PackedFindings {
    const tables: MemberTable[] = [];
    const packed = findings.map((f): PackedFinding => {
      if (f.code !== 'prefix-cache' || !f.relatedFiles) return f;
      const group = this.source.membersOf(f.file);
      if (!group || !namesGroup(f, group.related, group.self)) return f;
      let id = this.ids.get(group.related);
      if (id === undefined) {
        this.ids.set(group.related, (id = this.next++));
        tables.push({ id, related: group.related });
      }
      const { relatedFiles: _related, data, ...rest } = f;
      const { files: _files, ...figures } = data;
      return { ...rest, data: figures, members: { table: id, self: group.self } };
    });
    return { tables, findings: packed };
  }
}

/** Whether a finding's relatedFiles and data.files are exactly the group's members but its own file, as built. */
function namesGroup(f: Finding, related: readonly RelatedLocation[], self: number): boolean {
  const others = f.relatedFiles as RelatedLocation[];
  const files = f.data.files;
  if (others.length !== related.length - 1 || !Array.isArray(files) || files.length !== related.length) return false;
  if (related[self]?.file !== f.file) return false;
  for (let i = 0; i < others.length; i++) if (others[i] !== related[i < self ? i : i + 1]) return false;
  for (let i = 0; i < files.length; i++) if (files[i] !== (related[i] as RelatedLocation).file) return false;
  return true;
}

/**
 * The receiving side: keeps the tables and expands a packed finding into the finding that was packed.
 * `retain` drops tables no kept finding names (a group's table is replaced when the group changes).
 */
export class FindingUnpacker {
  private readonly tables = new Map<number, RelatedLocation[]>();

  /** Takes a message's tables; returns its findings, still packed. */
  receive(message: PackedFindings): PackedFinding[] {
    for (const t of message.tables) this.tables.set(t.id, t.related);
    return message.findings;
  }

  expand(f: PackedFinding): Finding {
    if (!('members' in f)) return f;
    const { members, data, ...rest } = f;
    const related = this.tables.get(members.table);
    if (!related) throw new Error(`findings: member table ${members.table} was not received`);
    return {
      ...rest,
      relatedFiles: related.filter((_, i) => i !== members.self),
      data: { ...data, files: related.map((r) => r.file) },
    };
  }

  /** Forgets the tables none of `kept` names. */
  retain(kept: Iterable<PackedFinding>): void {
    const named = new Set<number>();
    for (const f of kept) if ('members' in f) named.add(f.members.table);
    for (const id of this.tables.keys()) if (!named.has(id)) this.tables.delete(id);
  }

  get size(): number {
    return this.tables.size;
  }
}
