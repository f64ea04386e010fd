import assert from 'node:assert/strict';
import { linearCostModel } from '../../../src/core/findings/costModel';
import { FindingPacker, FindingUnpacker, type PackedFindings } from '../../../src/core/findings/groupTable';
import { PrefixCacheAnalyser } from '../../../src/core/findings/prefixCache';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import type { Finding } from '../../../src/core/findings/types';
import { LINEAR_PARAMS, promptFile, wordTokenizer, words } from './helpers';

// Issue #19 goal 4: findings cross to the extension host with each cache group's members sent once.
// What the host rebuilds must be exactly what the analysis found (same keys in the same order).

function analyser(): PrefixCacheAnalyser {
  return new PrefixCacheAnalyser({
    tokenizer: wordTokenizer,
    costModel: linearCostModel(LINEAR_PARAMS),
    settings: { ...DEFAULT_FINDING_SETTINGS.cache, minSharedTokens: 32 },
  });
}

/** Two groups (by system prompt) of `perGroup` files, named out of order, plus a file sharing nothing. */
function workspace(a: PrefixCacheAnalyser, perGroup: number): string[] {
  const paths: string[] = [];
  for (let i = perGroup * 2 - 1; i >= 0; i--) {
    const path = `p/${String.fromCharCode(97 + (i % 5))}${i}.prompt`;
    const f = promptFile([
      ['system', words(80, i % 2 === 0 ? 'even' : 'odd')],
      ['user', words(10, `u${i}x`)],
    ]);
    a.update(path, f.text, f.parsed);
    paths.push(path);
  }
  const alone = promptFile([['system', words(80, 'alone')]]);
  a.update('p/alone.prompt', alone.text, alone.parsed);
  paths.push('p/alone.prompt');
  return paths.sort();
}

/** Structured clone, as postMessage copies a message, then the host's side. */
function sendAll(packer: FindingPacker, unpacker: FindingUnpacker, batches: Finding[][]): Finding[] {
  return batches.flatMap((b) => unpacker.receive(structuredClone(packer.pack(b))).map((f) => unpacker.expand(f)));
}

describe('findings sent with their cache groups as member tables (groupTable.ts)', () => {
  it('the host rebuilds every finding exactly, key order included, across messages', () => {
    const a = analyser();
    const paths = workspace(a, 12);
    const findings = paths.map((p) => a.findingsFor(p));
    assert.ok(findings.flat().filter((f) => f.code === 'prefix-cache').length >= 24);
    const packer = new FindingPacker(a);
    const unpacker = new FindingUnpacker();
    // Three messages: each group's table travels with the first message that names it.
    const batches = [findings.slice(0, 3).flat(), findings.slice(3, 15).flat(), findings.slice(15).flat()];
    const sent: PackedFindings[] = [];
    const received = batches.flatMap((b) => {
      const message = packer.pack(b);
      sent.push(message);
      return unpacker.receive(structuredClone(message)).map((f) => unpacker.expand(f));
    });
    assert.equal(JSON.stringify(received), JSON.stringify(findings.flat()));
    assert.deepEqual(received, findings.flat());
    assert.equal(sent.flatMap((m) => m.tables).length, 2, 'one table per group, sent once');
    // No packed finding carries a member list; each names its own file's place in its table.
    for (const m of sent)
      for (const f of m.findings)
        if ('members' in f) {
          assert.equal('relatedFiles' in f, false);
          assert.equal('files' in f.data, false);
          const table = sent.flatMap((x) => x.tables).find((t) => t.id === f.members.table)!;
          assert.equal(table.related[f.members.self]!.file, f.file);
        }
    assert.ok(sent.flatMap((m) => m.findings).every((f) => f.code !== 'prefix-cache' || 'members' in f));
  });

  it('after an edit the changed group gets a new table and findings still expand to what was found', () => {
    const a = analyser();
    const paths = workspace(a, 6);
    const packer = new FindingPacker(a);
    const unpacker = new FindingUnpacker();
    sendAll(
      packer,
      unpacker,
      paths.map((p) => a.findingsFor(p)),
    );
    // The edited file now shares fewer tokens with its group: its and its partners' prefix ends move.
    const edited = promptFile([
      ['system', `${words(40, 'even')} changed ${words(39, 'even', 41)}`],
      ['user', 'hello'],
    ]);
    a.update(paths[0]!, edited.text, edited.parsed);
    const after = paths.map((p) => a.findingsFor(p));
    const message = packer.pack(after.flat());
    assert.ok(message.tables.length >= 1, 'the changed group is sent again');
    const received = unpacker.receive(structuredClone(message)).map((f) => unpacker.expand(f));
    assert.equal(JSON.stringify(received), JSON.stringify(after.flat()));
  });

  it('a finding whose member lists are not its group’s as built goes unchanged (e.g. with positions added)', () => {
    const a = analyser();
    const paths = workspace(a, 4);
    const found = a.findingsFor(paths[0]!)[0]!;
    assert.equal(found.code, 'prefix-cache');
    const positioned: Finding = {
      ...found,
      relatedFiles: found.relatedFiles!.map((r) => ({ ...r, position: { line: 2, column: 1 } })),
    };
    const trimmed: Finding = { ...found, relatedFiles: found.relatedFiles!.slice(1) };
    const message = new FindingPacker(a).pack([positioned, trimmed]);
    assert.deepEqual(message, { tables: [], findings: [positioned, trimmed] });
  });

  it('a packed finding whose table never arrived is an error, and retain forgets unnamed tables', () => {
    const a = analyser();
    const paths = workspace(a, 4);
    const packer = new FindingPacker(a);
    const partner = a.groupOf(paths[0]!)!.members.find((m) => m.file !== paths[0])!.file;
    const first = packer.pack(a.findingsFor(paths[0]!));
    const second = packer.pack(a.findingsFor(partner));
    assert.equal(second.tables.length, 0, 'the group went with the first message');
    const unpacker = new FindingUnpacker();
    const kept = unpacker.receive(second);
    assert.throws(() => unpacker.expand(kept[0]!), /member table 0 was not received/);
    const all = [...unpacker.receive(first), ...kept];
    assert.equal(unpacker.size, 1);
    unpacker.retain([]);
    assert.equal(unpacker.size, 0);
    unpacker.receive(first);
    unpacker.retain(all);
    assert.equal(unpacker.size, 1);
  });
});

describe('group members in name order across edits (prefixIndex.ts reuses the last order of the same files)', () => {
  it('a group whose files change (one leaves, another joins) is ordered as a fresh analysis orders it', () => {
    const a = analyser();
    const files = new Map<string, ReturnType<typeof promptFile>>();
    const set = (path: string, sections: Parameters<typeof promptFile>[0]) => {
      const f = promptFile(sections);
      files.set(path, f);
      a.update(path, f.text, f.parsed);
    };
    for (let i = 15; i >= 0; i--)
      set(`p/${String.fromCharCode(97 + (i % 5))}${i}.prompt`, [
        ['system', words(80, i % 2 === 0 ? 'even' : 'odd')],
        ['user', words(10, `u${i}x`)],
      ]);
    // Warm every group's order, then change the set: one member leaves, a new one (named in between) joins.
    for (const p of files.keys()) a.findingsFor(p);
    set('p/a0.prompt', [['system', words(80, 'other')]]);
    set('p/b-new.prompt', [
      ['system', words(80, 'even')],
      ['user', 'new'],
    ]);
    for (const p of files.keys()) a.findingsFor(p);
    // And an edit that keeps the set: the remembered order is used.
    set('p/c2.prompt', [
      ['system', words(80, 'even')],
      ['user', 'edited'],
    ]);
    const fresh = analyser();
    for (const [p, f] of [...files].reverse()) fresh.update(p, f.text, f.parsed);
    assert.deepEqual(a.groups(), fresh.groups());
    assert.equal(a.groups().length, 2);
    for (const g of a.groups()) {
      const names = g.members.map((m) => m.file);
      assert.deepEqual(names, [...names].sort(new Intl.Collator().compare));
    }
    for (const p of files.keys()) assert.deepEqual(a.findingsFor(p), fresh.findingsFor(p));
  });

  it('names the collator ranks equal are ordered as a full sort orders them (by token order), not as remembered', () => {
    // "é" composed and decomposed compare equal: a stable sort leaves them in token order, which an edit can swap.
    const a = analyser();
    const fresh = analyser();
    const composed = 'p/caf\u00e9.prompt';
    const decomposed = 'p/cafe\u0301.prompt';
    assert.equal(new Intl.Collator().compare(composed, decomposed), 0);
    const file = (user: string) =>
      promptFile([
        ['system', words(80, 'same')],
        ['user', user],
      ]);
    for (const [path, f] of [
      [composed, file('x')],
      [decomposed, file('x y')],
      ['p/cafa.prompt', file('z')],
    ] as const)
      a.update(path, f.text, f.parsed);
    const before = a.groups()[0]!.members.map((m) => m.file);
    // The composed name's request now follows the decomposed one's (its tokens extend them).
    const edited = file('x y z');
    a.update(composed, edited.text, edited.parsed);
    for (const [path, f] of [
      [composed, edited],
      [decomposed, file('x y')],
      ['p/cafa.prompt', file('z')],
    ] as const)
      fresh.update(path, f.text, f.parsed);
    const after = a.groups()[0]!.members.map((m) => m.file);
    assert.deepEqual(a.groups(), fresh.groups());
    assert.notDeepEqual(after, before, 'the tie is ordered anew');
  });
});
