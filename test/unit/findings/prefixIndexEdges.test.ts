import assert from 'node:assert/strict';
import { MAX_BREAKER_SPANS, PrefixIndex, type PrefixIndexOptions } from '../../../src/core/findings/prefixIndex';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { parsePrompt } from '../../../src/core/prompt/parse';
import type { ChatRole } from '../../../src/core/prompt/types';
import { TokenMemo } from '../../../src/core/findings/encoding';
import { buildRequest } from '../../../src/core/findings/request';
import { compareTokens, hashTokens } from '../../../src/core/findings/tokenSeq';
import type { Tokenizer, TokenizerId } from '../../../src/core/tokenize/types';
import { promptFile, wordTokenizer, words } from './helpers';

// The prefix index at its edges: thresholds met exactly, files that are not neighbours, messages out of
// request order, more dynamic parts than are considered. One token per word (wordTokenizer), one role token
// per message.
function index(
  cacheRule = { minTokens: 4, granularity: 1 },
  minSharedTokens = 8,
  more: Partial<PrefixIndexOptions> & { cache?: Partial<typeof DEFAULT_FINDING_SETTINGS.cache> } = {},
) {
  const { cache, ...rest } = more;
  return new PrefixIndex({
    tokenizer: wordTokenizer,
    cacheRule,
    settings: { ...DEFAULT_FINDING_SETTINGS.cache, minSharedTokens, ...cache },
    ...rest,
  });
}

function add(i: PrefixIndex, file: string, sections: Array<[ChatRole, string]>, inputTokens?: number) {
  const f = promptFile(sections);
  i.update(file, f.text, f.parsed, inputTokens);
  return f;
}

describe('prefix index edges: groups', () => {
  it('files sharing exactly the threshold form a group, seen from each member', () => {
    const i = index({ minTokens: 4, granularity: 1 }, 64);
    // Role token + 63 shared words = 64 tokens, then the files differ.
    add(i, 'a', [['system', `${words(63)} a1 a2`]]);
    add(i, 'b', [['system', `${words(63)} b1 b2`]]);
    assert.equal(i.groups().length, 1);
    assert.equal(i.groupOf('a')?.sharedTokens, 64);
    assert.equal(i.groupOf('b')?.sharedTokens, 64);
    const j = index({ minTokens: 4, granularity: 1 }, 65);
    add(j, 'a', [['system', `${words(63)} a1 a2`]]);
    add(j, 'b', [['system', `${words(63)} b1 b2`]]);
    assert.deepEqual(j.groups(), []);
    assert.equal(j.groupOf('b'), undefined);
  });

  it('a member whose whole request is shared caches one token less; prefixEnd at the end of the shared message', () => {
    const i = index({ minTokens: 4, granularity: 16 }, 8);
    // a: role + 79 words = 80 tokens, all shared with b.
    const a = add(i, 'a', [['system', words(79)]]);
    const b = add(i, 'b', [
      ['system', words(79)],
      ['assistant', 'more words here'],
    ]);
    const group = i.groupOf('a')!;
    assert.equal(group.sharedTokens, 80);
    assert.equal(group.cacheableTokens, 64, '79 usable tokens, in steps of 16');
    assert.deepEqual(
      group.members.map((m) => [m.file, m.prefixEnd]),
      [
        ['a', a.text.length - 1],
        ['b', b.text.indexOf('\nassistant:')],
      ],
    );
  });

  it('the caller’s input tokens, when given, are the prompt tokens', () => {
    const i = index();
    add(i, 'a', [['system', words(10)]], 99);
    add(i, 'b', [['system', words(10)]]);
    assert.equal(i.promptTokens('a'), 99);
    assert.equal(i.promptTokens('b'), 11);
    assert.equal(i.promptTokens('missing'), undefined);
    assert.equal(i.groupOf('a')?.members.find((m) => m.file === 'a')?.promptTokens, 99);
  });

  it('unknown files: no text, group, near miss, static prefix, breakers or hints', () => {
    const i = index(undefined, undefined, { cache: { dynamicHints: true } });
    add(i, 'a', [['system', words(10)]]);
    assert.equal(i.textOf('missing'), undefined);
    assert.equal(i.groupOf('missing'), undefined);
    assert.equal(i.nearMiss('missing'), undefined);
    assert.equal(i.staticPrefix('missing'), undefined);
    assert.deepEqual(i.breakers('missing'), []);
    assert.deepEqual(i.hints('missing'), []);
  });

  it('files with the same requests are kept in name order, and each is found again', () => {
    const i = index();
    for (const file of ['c', 'a', 'b']) add(i, file, [['system', words(10)]]);
    assert.deepEqual(i.files(), ['a', 'b', 'c']);
    assert.deepEqual(
      i.groupOf('b')?.members.map((m) => m.file),
      ['a', 'b', 'c'],
    );
    i.remove('b');
    assert.deepEqual(i.files(), ['a', 'c']);
    assert.equal(i.groupOf('c')?.members.length, 2);
  });

  it('a file without messages has an empty static prefix at offset 0', () => {
    const i = index();
    i.update('empty', '', {
      format: 'plain',
      engine: 'generic',
      messages: [],
      variables: [],
      settings: {},
      errors: [],
    });
    assert.deepEqual(i.staticPrefix('empty'), { tokens: 0, cacheableTokens: 0, endOffset: 0 });
    assert.equal(i.nearMiss('empty'), undefined);
  });

  it('instruction sources are the instruction files only, with their content tokens', () => {
    const i = index();
    const agents = `# Agents\n${words(20)}\n`;
    i.update('AGENTS.md', agents, parsePrompt('AGENTS.md', agents));
    add(i, 'p.prompt', [['system', words(5)]]);
    assert.deepEqual(
      i.instructionSources().map((s) => [s.file, s.tokens]),
      [['AGENTS.md', 22]],
    );
  });

  it('instruction sources keep the order files were last analysed in, across edits and removals', () => {
    const i = index();
    const put = (file: string, n: number) => {
      const text = `# ${file}\n${words(n)}\n`;
      i.update(file, text, parsePrompt(file, text));
    };
    put('AGENTS.md', 10);
    put('docs/a.instructions.md', 11);
    add(i, 'p.prompt', [['system', words(5)]]);
    put('.github/copilot-instructions.md', 12);
    put('AGENTS.md', 13);
    put('docs/b.instructions.md', 14);
    i.remove('docs/a.instructions.md');
    i.remove('p.prompt');
    assert.deepEqual(
      i.instructionSources().map((s) => s.file),
      ['.github/copilot-instructions.md', 'AGENTS.md', 'docs/b.instructions.md'],
    );
  });
});

describe('prefix index edges: static prefix and messages out of request order', () => {
  it('finds a dynamic part in a user message written before the system message', () => {
    const i = index();
    // Request order: system (rank 0), first user, second user.
    const f = add(i, 'f', [
      ['user', `${words(3, 'u')} {{q}} ${words(3, 'v')}`],
      ['system', words(10, 's')],
      ['user', words(4, 'x')],
    ]);
    const cut = i.staticPrefix('f')!;
    // system role + 10 words, user role + 3 words.
    assert.equal(cut.tokens, 15);
    assert.equal(cut.endOffset, f.text.indexOf('{{q}}'));
    assert.equal(cut.dynamic?.text, '{{q}}');
  });

  it('finds a dynamic part in a system message written after three user messages', () => {
    const i = index();
    const f = add(i, 'f', [
      ['user', 'a'],
      ['user', 'b'],
      ['user', 'c'],
      ['system', 'w0 w1 {{v}} w2'],
      ['user', 'd'],
    ]);
    const cut = i.staticPrefix('f')!;
    assert.equal(cut.tokens, 3);
    assert.equal(cut.endOffset, f.text.indexOf('{{v}}'));
  });

  it('file patterns: the file’s own prompt-lens-dynamic pragmas count unless switched off', () => {
    const sections: Array<[ChatRole, string]> = [
      ['system', `<!-- prompt-lens-dynamic ORD-\\d+ --> ${words(5)} ORD-7 ${words(5, 'x')}`],
    ];
    const on = index();
    const f = add(on, 'f', sections);
    assert.equal(on.staticPrefix('f')?.endOffset, f.text.indexOf('ORD-7'));
    const off = index(undefined, undefined, { filePatterns: false });
    add(off, 'f', sections);
    assert.equal(off.staticPrefix('f')?.dynamic, undefined);
  });
});

describe('prefix index edges: near misses', () => {
  // First messages of 40 words; b differs from a in word `at` only.
  const system = (at: number, other: string) => {
    const w = words(40).split(' ');
    w[at] = other;
    return w.join(' ');
  };

  it('finds the near miss from both neighbours and reports the differing words', () => {
    const i = index();
    const a = add(i, 'a', [
      ['system', system(10, 'alpha')],
      ['user', 'q'],
    ]);
    const b = add(i, 'b', [
      ['system', system(10, 'beta')],
      ['user', 'q'],
    ]);
    const fromA = i.nearMiss('a')!;
    assert.deepEqual(
      { ...fromA, range: undefined, otherRange: undefined },
      {
        file: 'a',
        other: 'b',
        range: undefined,
        otherRange: undefined,
        text: 'alpha',
        otherText: 'beta',
        sharedNow: 11,
        // Role token + 10 words + the 29 after the differing one.
        sharedWithout: 40,
        cacheableNow: 11,
        cacheableWithout: 40,
      },
    );
    assert.deepEqual(fromA.range, { start: a.text.indexOf('alpha'), end: a.text.indexOf('alpha') + 5 });
    assert.deepEqual(fromA.otherRange, { start: b.text.indexOf('beta'), end: b.text.indexOf('beta') + 4 });
    assert.equal(i.nearMiss('b')?.other, 'a');
  });

  it('the one request that ends first caps what is cacheable (one token computed)', () => {
    const i = index();
    const base = words(40).split(' ');
    // b has one word more than a; a's whole request (41 tokens) is shared once b's extra word is gone.
    add(i, 'a', [['system', base.join(' ')]]);
    add(i, 'b', [
      ['system', [...base.slice(0, 10), 'extra', ...base.slice(10)].join(' ')],
      ['user', words(20, 'q')],
    ]);
    const miss = i.nearMiss('a')!;
    assert.equal(miss.sharedWithout, 41);
    assert.equal(miss.cacheableWithout, 40);
  });

  it('a dynamic part in one first message caps the shared prefix for both', () => {
    const i = index();
    const withVariable = (other: string) => {
      const w = system(10, other).split(' ');
      w.splice(30, 0, '{{v}}');
      return w.join(' ');
    };
    add(i, 'a', [
      ['system', withVariable('alpha')],
      ['user', 'q'],
    ]);
    // b sends the same text, but its {{v}} is stable: only a's static prefix ends there (role + 30 words).
    const b = promptFile([
      ['system', withVariable('beta')],
      ['user', 'q'],
    ]);
    for (const v of b.parsed.variables) v.stable = true;
    i.update('b', b.text, b.parsed);
    assert.equal(i.nearMiss('b')?.sharedWithout, 31);
  });

  it('first messages that never realign are no near miss', () => {
    const i = index();
    add(i, 'a', [['system', words(40, 'x')]]);
    add(i, 'b', [['system', words(40, 'y')]]);
    assert.equal(i.nearMiss('a'), undefined);
    assert.equal(i.nearMiss('b'), undefined);
  });

  it('keeps the largest gain when it is found first', () => {
    const i = index();
    const at = (changes: Record<number, string>) => {
      const w = words(40).split(' ');
      for (const [k, v] of Object.entries(changes)) w[Number(k)] = v;
      return w.join(' ');
    };
    // a–b differ at word 2 (gain 40: nothing cacheable now), a–c at word 7 (gain 32); word ids sort b, a, c.
    add(i, 'a', [
      ['system', at({ 7: 'x1' })],
      ['user', 'q'],
    ]);
    // The larger gain's file (y) has the later name: a smaller gain found after it does not win by name.
    add(i, 'y', [
      ['system', at({ 2: 'pp', 7: 'x1' })],
      ['user', 'q'],
    ]);
    add(i, 'c', [
      ['system', at({ 7: 'x2' })],
      ['user', 'q'],
    ]);
    assert.deepEqual(i.files(), ['y', 'a', 'c']);
    const miss = i.nearMiss('a')!;
    assert.equal(miss.other, 'y');
    assert.equal(miss.cacheableWithout - miss.cacheableNow, 40);
  });

  it('picks the near miss with the largest gain', () => {
    const i = index();
    add(i, 'a', [
      ['system', system(5, 'alpha')],
      ['user', 'q'],
    ]);
    add(i, 'b', [
      ['system', system(5, 'beta')],
      ['user', 'q'],
    ]);
    add(i, 'c', [
      ['system', system(30, 'gamma')],
      ['user', 'q'],
    ]);
    // a–b differ at word 5 (gain 35 tokens), a–c and b–c at word 5 and 30: pairs with c gain less or nothing.
    assert.equal(i.nearMiss('a')?.other, 'b');
    assert.equal(i.nearMiss('b')?.other, 'a');
  });

  it('the threshold applies to what becomes cacheable and to the gain, both met exactly', () => {
    // Threshold 8. a and b differ in their first word, then share 7 words: 8 cacheable without it, gain 8.
    const exact = index({ minTokens: 8, granularity: 1 }, 8);
    add(exact, 'a', [
      ['system', `alpha ${words(7)}`],
      ['user', 'q1 q2'],
    ]);
    add(exact, 'b', [
      ['system', `beta ${words(7)}`],
      ['user', 'q1 q2'],
    ]);
    assert.deepEqual([exact.nearMiss('a')?.cacheableNow, exact.nearMiss('a')?.cacheableWithout], [0, 8]);
    // Only 6 words shared after the first: 7 cacheable, under the threshold.
    const under = index({ minTokens: 4, granularity: 1 }, 8);
    add(under, 'a', [
      ['system', `alpha ${words(6)}`],
      ['user', 'q1 q2'],
    ]);
    add(under, 'b', [
      ['system', `beta ${words(6)}`],
      ['user', 'q1 q2'],
    ]);
    assert.equal(under.nearMiss('a'), undefined);
    // Cacheable enough both ways, but the gain is 5: no near miss.
    const small = index({ minTokens: 4, granularity: 1 }, 8);
    add(small, 'a', [
      ['system', `${words(10)} alpha ${words(5, 'x')}`],
      ['user', 'q1 q2'],
    ]);
    add(small, 'b', [
      ['system', `${words(10)} beta ${words(5, 'x')}`],
      ['user', 'q1 q2'],
    ]);
    assert.equal(small.nearMiss('a'), undefined);
  });

  it('finds a near miss between files that sorting keeps apart (same ending), and forgets a removed file', () => {
    const i = index();
    const tail = words(40, 't');
    add(i, 'a', [
      ['system', `alpha ${tail}`],
      ['user', 'q'],
    ]);
    add(i, 'b', [
      ['system', `beta ${tail}`],
      ['user', 'q'],
    ]);
    // Short files starting like a or b sort next to them (too short for a near miss of their own).
    for (let k = 0; k < 6; k++) {
      add(i, `fa${k}`, [['system', `alpha ${words(3, `za${k}`)}`]]);
      add(i, `fb${k}`, [['system', `beta ${words(3, `zb${k}`)}`]]);
    }
    const order = i.files();
    assert.ok(Math.abs(order.indexOf('a') - order.indexOf('b')) > 1, 'a and b are not neighbours');
    assert.equal(i.nearMiss('a')?.other, 'b');
    // A twin of a (same first message) joins the same ending: a still finds b.
    add(i, 'a2', [
      ['system', `alpha ${tail}`],
      ['user', 'q'],
    ]);
    assert.equal(i.nearMiss('a')?.other, 'b');
    i.remove('b');
    assert.equal(i.nearMiss('a'), undefined);
  });

  it('an insertion point is an empty range at the insertion', () => {
    const i = index();
    const base = words(40).split(' ');
    const withExtra = [...base.slice(0, 10), 'extra', ...base.slice(10)].join(' ');
    add(i, 'a', [
      ['system', withExtra],
      ['user', 'q'],
    ]);
    const b = add(i, 'b', [
      ['system', base.join(' ')],
      ['user', 'q'],
    ]);
    const miss = i.nearMiss('b')!;
    assert.equal(miss.otherText, 'extra');
    assert.equal(miss.text, '');
    assert.equal(miss.range.start, miss.range.end);
    assert.equal(miss.range.start, b.text.indexOf(' w10'));
  });
});

describe('prefix index edges: near-miss candidates with the same ending', () => {
  // Every first message below ends with the same 40 words, so all fall into one near-miss bucket; `alpha`
  // (file e) and `beta` (file q) differ in their first word only: a near miss, role token + 40 words
  // cacheable without it (41), nothing now (1 shared token, under the minimum of 4): gain 41.
  const tail = words(40, 't');
  const sections = (head: string): Array<[ChatRole, string]> => [
    ['system', `${head} ${tail}`],
    ['user', 'q'],
  ];
  // Different first words for 40 words: more than the realignment gap (32), so no near miss with e.
  const far = (k: number) => sections(words(40, `b${k}x`));

  function bucket(bad: number) {
    const i = index();
    // q among the others, in no order by name: candidates are taken by name, not in the order files came.
    add(i, 'e', sections('alpha'));
    for (let k = 0; k <= bad; k++) {
      if (k === Math.min(8, bad)) add(i, 'q', sections('beta'));
      const n = (k * 7) % bad;
      if (k < bad) add(i, `b${String(n).padStart(2, '0')}`, far(n));
    }
    // Short files starting like e sort on both sides of it (word ids: a0 < t0 < u0), its neighbours.
    for (let k = 0; k < 3; k++) {
      add(i, `fa${k}`, [['system', `alpha a${k} ${words(2, 'z')}`]]);
      add(i, `fu${k}`, [['system', `alpha u${k} ${words(2, 'z')}`]]);
    }
    const order = i.files();
    const at = order.indexOf('e');
    assert.deepEqual([order[at - 1]?.[0], order[at + 1]?.[0]], ['f', 'f'], 'e’s neighbours are short files');
    return i;
  }

  it('looks at the first 16 distinct first messages by file name', () => {
    // 16 others before q by name: q is the 17th, not looked at.
    const full = bucket(16);
    assert.equal(full.nearMiss('e'), undefined);
    // 15 before it: q is the 16th.
    const i = bucket(15);
    const miss = i.nearMiss('e')!;
    assert.deepEqual(
      [miss.other, miss.text, miss.otherText, miss.sharedNow, miss.sharedWithout, miss.cacheableWithout],
      ['q', 'alpha', 'beta', 1, 41, 41],
    );
    full.remove('b07');
    assert.equal(full.nearMiss('e')?.other, 'q');
  });

  it('one candidate per first message: twins of another file, of e, and files starting with e’s take no place', () => {
    const i = bucket(15);
    // A second file with b00's first message: still 15 distinct ones before q.
    add(i, 'b00x', far(0));
    // e's twin, before everyone by name.
    add(i, 'a0', sections('alpha'));
    // A file whose first message is e's and more, with the same last 32 words: a group member of e.
    add(i, 'a1', [
      ['system', `alpha ${tail} more ${tail.split(' ').slice(8).join(' ')}`],
      ['user', 'q'],
    ]);
    assert.equal(i.nearMiss('e')?.other, 'q');
    // e's twins come and go: a removed twin's first message is still e's (the array e holds).
    add(i, 'a2', sections('alpha'));
    i.remove('a2');
    add(i, 'a3', sections('alpha'));
    assert.equal(i.nearMiss('e')?.other, 'q');
    assert.equal(i.nearMiss('a3')?.other, 'q');
  });

  it('a first message’s candidate is its first file by name, as files come and go', () => {
    const i = bucket(0);
    assert.equal(i.nearMiss('e')?.other, 'q');
    // p9 has q's first message and sorts before it.
    add(i, 'p9', sections('beta'));
    assert.equal(i.nearMiss('e')?.other, 'p9');
    // r sorts after q: q stays.
    i.remove('p9');
    add(i, 'r', sections('beta'));
    assert.equal(i.nearMiss('e')?.other, 'q');
    i.remove('q');
    assert.equal(i.nearMiss('e')?.other, 'r');
    i.remove('r');
    assert.equal(i.nearMiss('e'), undefined);
  });

  it('equal gains go to the first file by name, whichever neighbour is looked at first', () => {
    // Word ids sort beta < iota < zeta: e (iota) has the other two as neighbours; each differs from it in the
    // first word only, so both gains are 41.
    for (const [before, after] of [
      ['z', 'q'],
      ['q', 'z'],
    ]) {
      const i = index();
      add(i, before as string, sections('beta'));
      add(i, 'e', sections('iota'));
      add(i, after as string, sections('zeta'));
      assert.deepEqual(i.files(), [before, 'e', after]);
      const miss = i.nearMiss('e')!;
      assert.deepEqual([miss.other, miss.cacheableWithout - miss.cacheableNow], ['q', 41], `${before} first`);
    }
  });
});

describe('prefix index edges: kept state', () => {
  it('a file’s place in the order is found again after another file moves past it', () => {
    // Word ids sort beta < zeta < alpha: a, then the group {b, c}; a's new text sorts after them.
    const i = index();
    add(i, 'a', [['system', `beta ${words(20, 'x')}`]]);
    add(i, 'b', [['system', `zeta ${words(20)}`]]);
    add(i, 'c', [['system', `zeta ${words(20)}`]]);
    assert.deepEqual(i.files(), ['a', 'b', 'c']);
    assert.equal(i.groupOf('a'), undefined);
    assert.deepEqual(
      i.groupOf('c')?.members.map((m) => m.file),
      ['b', 'c'],
    );
    add(i, 'a', [['system', `alpha ${words(20, 'x')}`]]);
    assert.deepEqual(i.files(), ['b', 'c', 'a']);
    assert.deepEqual(
      i.groupOf('c')?.members.map((m) => m.file),
      ['b', 'c'],
    );
    assert.deepEqual(
      i.groupOf('b')?.members.map((m) => m.file),
      ['b', 'c'],
    );
    assert.equal(i.groupOf('a'), undefined);
  });

  it('keeps files in request-token order, then by name, whatever order they come and go in', () => {
    // Short messages over three words: many share long prefixes, many are equal, some are others' prefixes.
    let seed = 7;
    const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff), (seed >>> 8) % n);
    const texts = new Map<string, string>();
    for (let k = 0; k < 60; k++)
      texts.set(`f${String(k).padStart(2, '0')}`, Array.from({ length: 1 + next(6) }, () => 'xyz'[next(3)]).join(' '));
    const memo = new TokenMemo(wordTokenizer);
    const tokens = (file: string) => buildRequest(promptFile([['system', texts.get(file)!]]).parsed, memo).tokens;
    // The plain comparison the index's binary search must agree with.
    const sorted = () =>
      [...texts.keys()].sort((a, b) => compareTokens(tokens(a), tokens(b)) || (a < b ? -1 : a > b ? 1 : 0));
    const i = index();
    const files = [...texts.keys()];
    for (let k = files.length - 1; k > 0; k--) {
      const j = next(k + 1);
      [files[k], files[j]] = [files[j]!, files[k]!];
    }
    for (const file of files) add(i, file, [['system', texts.get(file)!]]);
    assert.deepEqual(i.files(), sorted());
    // Every file is found again (a lookup that missed would throw), then a third change their text.
    for (const file of files) assert.equal(i.textOf(file), promptFile([['system', texts.get(file)!]]).text);
    for (const file of files.filter((_, k) => k % 3 === 0)) {
      texts.set(file, Array.from({ length: 1 + next(6) }, () => 'xyz'[next(3)]).join(' '));
      add(i, file, [['system', texts.get(file)!]]);
    }
    assert.deepEqual(i.files(), sorted());
    for (const file of files.filter((_, k) => k % 2 === 0)) {
      i.remove(file);
      texts.delete(file);
    }
    assert.deepEqual(i.files(), sorted());
  });

  it('holds no first message and no bucket that no file has: an editor session’s edits leave nothing behind', () => {
    const i = index();
    const held = () => {
      const state = i as unknown as {
        firsts: Map<string, Array<{ holders: number }>>;
        tails: Map<string, Map<Int32Array, unknown>>;
      };
      return {
        firsts: [...state.firsts.values()].map((same) => same.map((s) => s.holders)),
        tails: [...state.tails.values()].map((bucket) => bucket.size),
      };
    };
    const tail = words(40, 't');
    add(i, 'a', [['system', `alpha ${tail}`]]);
    add(i, 'b', [['system', `alpha ${tail}`]]);
    // One first message held twice, one bucket with one first message in it.
    assert.deepEqual(held(), { firsts: [[2]], tails: [1] });
    // a is edited word by word: each version replaces the one before.
    for (let k = 0; k < 5; k++) add(i, 'a', [['system', `alpha${k} ${tail}`]]);
    assert.deepEqual(held(), { firsts: [[1], [1]], tails: [2] });
    add(i, 'c', [['system', words(3)]]);
    assert.deepEqual(held(), { firsts: [[1], [1], [1]], tails: [2] });
    for (const file of ['a', 'b', 'c']) i.remove(file);
    assert.deepEqual(held(), { firsts: [], tails: [] });
  });

  it('first messages whose hashes collide stay two messages (a near miss), not one', () => {
    // Words n<k> are token k (anything else -1). FNV-1a of [1, 0] and [2, x] is the same for
    // x = the hash step of 1 ^ that of 2.
    const numbers: Tokenizer = {
      ...wordTokenizer,
      id: 'numbers' as TokenizerId,
      encode: (t) =>
        t
          .split(/\s+/)
          .filter((w) => w.length > 0)
          .map((w) => (/^n-?\d+$/.test(w) ? Number(w.slice(1)) : -1)),
    };
    const step = (t: number) => Math.imul(0x811c9dc5 ^ t, 0x01000193);
    const x = step(1) ^ step(2);
    const rest = Array.from({ length: 40 }, (_, k) => `n${100 + k}`).join(' ');
    const first = (head: string) => numbers.encode(`${head} ${rest}`);
    assert.equal(
      hashTokens(Int32Array.from(first('n1 n0')), 0, 42),
      hashTokens(Int32Array.from(first(`n2 n${x}`)), 0, 42),
    );
    const i = index(undefined, undefined, { tokenizer: numbers });
    add(i, 'a', [
      ['system', `n1 n0 ${rest}`],
      ['user', 'n7'],
    ]);
    add(i, 'b', [
      ['system', `n2 n${x} ${rest}`],
      ['user', 'n7'],
    ]);
    const miss = i.nearMiss('a')!;
    assert.deepEqual([miss.other, miss.text, miss.otherText, miss.sharedWithout], ['b', 'n1 n0', `n2 n${x}`, 41]);
  });
});

describe('prefix index edges: cache breakers', () => {
  it('a variable at the end of the system message breaks the cache of the user message after it', () => {
    const i = index();
    add(i, 'f', [
      ['system', `${words(5)} {{v}}`],
      ['user', words(20, 'u')],
    ]);
    const [b, ...rest] = i.breakers('f');
    assert.equal(rest.length, 0);
    assert.equal(b?.text, '{{v}}');
    // user role token + 20 words.
    assert.equal(b?.staticTokensAfter, 21);
  });

  it('a dynamic part outside every message (front matter) is no breaker and no trouble', () => {
    const i = index();
    const f = promptFile([['system', `${words(5)} {{v}} ${words(20, 'u')}`]]);
    f.parsed.variables.push({ name: 'fm', range: { start: 0, end: 6 }, filled: false });
    i.update('f', f.text, f.parsed);
    assert.deepEqual(
      i.breakers('f').map((b) => b.text),
      ['{{v}}'],
    );
  });

  it('worth it: static text after the part, or the gain from moving it, of exactly the threshold', () => {
    // Threshold 6, steps of 4: 4 tokens before, 6 after; moving gains 8 - 4 = 4, the 6 after are enough.
    const after = index({ minTokens: 4, granularity: 4 }, 6);
    add(after, 'f', [['system', `${words(3)} {{a}} ${words(6, 'x')}`]]);
    assert.deepEqual(
      after.breakers('f').map((b) => [b.text, b.staticTokensAfter, b.cacheableNow, b.cacheableIfMoved]),
      [['{{a}}', 6, 4, 8]],
    );
    const fewer = index({ minTokens: 4, granularity: 4 }, 6);
    add(fewer, 'f', [['system', `${words(3)} {{a}} ${words(5, 'x')}`]]);
    assert.deepEqual(fewer.breakers('f'), []);
    // Threshold 8, steps of 1: 7 after, but moving it makes the role token and those 7 cacheable: gain 8.
    const gain = index({ minTokens: 8, granularity: 1 }, 8);
    add(gain, 'f', [['system', `{{b}} ${words(7, 'y')}`]]);
    assert.deepEqual(
      gain.breakers('f').map((b) => [b.text, b.cacheableNow, b.cacheableIfMoved]),
      [['{{b}}', 0, 8]],
    );
  });

  it('a later part counts the dynamic parts before it out of the static text', () => {
    const i = index({ minTokens: 8, granularity: 1 }, 8);
    add(i, 'f', [['system', `${words(3)} {{a}} ${words(8, 'x')} {{b}} ${words(8, 'y')}`]]);
    assert.deepEqual(
      i.breakers('f').map((b) => [b.text, b.staticTokensAfter, b.cacheableNow, b.cacheableIfMoved, b.dynamicBefore]),
      [
        ['{{a}}', 8, 0, 12, 0],
        ['{{b}}', 8, 0, 20, 1],
      ],
    );
  });

  it('moving must make more cacheable than now', () => {
    // Steps of 32: neither the 11 tokens before nor the 16 with the 5 after make a whole step.
    const i = index({ minTokens: 4, granularity: 32 }, 4);
    add(i, 'f', [['system', `${words(10)} {{a}} ${words(5, 'x')}`]]);
    assert.deepEqual(i.breakers('f'), []);
  });

  it('says where each part could move to: the next part, or the end of the request', () => {
    const i = index({ minTokens: 8, granularity: 1 }, 8);
    const f = add(i, 'f', [['system', `${words(3)} {{a}} ${words(10, 'x')} {{b}} ${words(10, 'y')}`]]);
    assert.deepEqual(
      i.breakers('f').map((b) => b.moveTo),
      [f.text.indexOf('{{b}}'), f.text.length - 1],
    );
  });

  it(`considers the first ${MAX_BREAKER_SPANS} dynamic parts in request order`, () => {
    const i = index({ minTokens: 8, granularity: 1 }, 8);
    const block = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, k) => `{{${prefix}${k}}} ${words(8, `${prefix}${k}w`)}`).join(' ');
    add(i, 'f', [
      ['user', block('u', 200)],
      ['system', block('s', 100)],
    ]);
    const breakers = i.breakers('f');
    assert.equal(breakers.length, MAX_BREAKER_SPANS);
    assert.equal(breakers[0]?.text, '{{s0}}');
    assert.equal(breakers.at(-1)?.text, `{{u${MAX_BREAKER_SPANS - 101}}}`);
    assert.equal(breakers.at(-1)?.dynamicBefore, MAX_BREAKER_SPANS - 1);
  });

  it('hints are the literal look-alikes only, not the variables', () => {
    const i = index(undefined, undefined, { cache: { dynamicHints: true } });
    add(i, 'f', [['system', `${words(3)} {{v}} ${words(10)} 2025-03-14 ${words(10, 'x')}`]]);
    assert.deepEqual(
      i.hints('f').map((h) => [h.text, h.hint]),
      [['2025-03-14', true]],
    );
    assert.deepEqual(
      i.breakers('f').map((b) => b.text),
      ['{{v}}'],
    );
  });
});
