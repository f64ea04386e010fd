import assert from 'node:assert/strict';
import { cacheableTokens, linearCostModel, type CacheRule } from '../../../src/core/findings/costModel';
import { PrefixCacheAnalyser, updateInSlices } from '../../../src/core/findings/prefixCache';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { parsePrompt } from '../../../src/core/prompt/parse';
import type { ChatRole } from '../../../src/core/prompt/types';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import type { Tokenizer } from '../../../src/core/tokenize/types';
import { promptFile, wordTokenizer, words } from './helpers';

const OPENAI_RULE: CacheRule = { minTokens: 1024, granularity: 128 };
const BLOCK_RULE: CacheRule = { minTokens: 16, granularity: 16 };

function analyser(
  rule: CacheRule = BLOCK_RULE,
  minSharedTokens = 1024,
  tokenizer: Tokenizer = wordTokenizer,
  cache: Partial<typeof DEFAULT_FINDING_SETTINGS.cache> = {},
  rag?: typeof DEFAULT_FINDING_SETTINGS.rag,
) {
  const costModel = linearCostModel({
    label: 'test model',
    cacheRule: rule,
    baseMs: 100,
    msPerToken: 0.1,
    msPerCachedToken: 0.01,
    usdPerMillionInput: 2,
    usdPerMillionCached: 0.5,
  });
  return new PrefixCacheAnalyser({
    tokenizer,
    costModel,
    settings: { ...DEFAULT_FINDING_SETTINGS.cache, minSharedTokens, ...cache },
    ...(rag ? { rag } : {}),
  });
}

function add(
  a: PrefixCacheAnalyser,
  file: string,
  sections: Array<[ChatRole, string]>,
  sample: Record<string, unknown> = {},
) {
  const f = promptFile(sections, sample);
  a.update(file, f.text, f.parsed);
  return f;
}

describe('cacheable tokens after provider rounding', () => {
  it('applies the minimum and the granularity, and always leaves one token to compute', () => {
    const cases: Array<[number, number, CacheRule, number]> = [
      [1023, 5000, OPENAI_RULE, 0],
      [1024, 5000, OPENAI_RULE, 1024],
      [1151, 5000, OPENAI_RULE, 1024],
      [1152, 5000, OPENAI_RULE, 1152],
      [2100, 5000, OPENAI_RULE, 2048],
      [15, 100, BLOCK_RULE, 0],
      [33, 100, BLOCK_RULE, 32],
      [48, 48, BLOCK_RULE, 32],
    ];
    for (const [shared, total, rule, expected] of cases)
      assert.equal(cacheableTokens(shared, total, rule), expected, `${shared} of ${total}`);
  });
});

describe('prefix-cache groups', () => {
  const system = words(2000, 's');

  it('groups files by longest common token prefix, system message first, and locates where it ends', () => {
    const a = analyser(OPENAI_RULE);
    const fa = add(a, 'a.prompt', [
      ['user', 'alpha question'],
      ['system', system],
    ]);
    add(a, 'b.prompt', [
      ['system', system],
      ['user', 'beta question'],
    ]);
    add(a, 'c.prompt', [
      ['system', words(2000, 't')],
      ['user', 'alpha question'],
    ]);
    const groups = a.groups();
    assert.equal(groups.length, 1);
    const g = groups[0]!;
    assert.deepEqual(
      g.members.map((m) => m.file),
      ['a.prompt', 'b.prompt'],
    );
    // role token + 2,000 system words + the user role token; OpenAI rounds down to 128-token steps.
    assert.equal(g.sharedTokens, 2002);
    assert.equal(g.cacheableTokens, 1920);
    const ma = g.members[0]!;
    assert.equal(ma.prefixEnd, fa.text.indexOf('alpha'));
    assert.equal(ma.coldTtftMs, 100 + 2004 * 0.1);
    assert.equal(ma.warmTtftMs, 100 + (2004 - 1920) * 0.1 + 1920 * 0.01);
    assert.ok(Math.abs(ma.savedUsdPer1kCalls! - (1000 * 1920 * 1.5) / 1e6) < 1e-9);
    assert.equal(a.groupOf('c.prompt'), undefined);
  });

  it('needs the larger of the cache rule minimum and the reporting threshold', () => {
    const a = analyser(OPENAI_RULE, 16);
    add(a, 'a', [
      ['system', words(1020, 's')],
      ['user', 'x'],
    ]);
    add(a, 'b', [
      ['system', words(1020, 's')],
      ['user', 'y'],
    ]);
    assert.equal(a.groups().length, 0, '1,022 shared tokens are below the 1,024 minimum');
    const b = analyser(BLOCK_RULE, 512);
    add(b, 'a', [
      ['system', words(600, 's')],
      ['user', 'x'],
    ]);
    add(b, 'b', [
      ['system', words(600, 's')],
      ['user', 'y'],
    ]);
    assert.equal(b.groups()[0]?.cacheableTokens, 592);
  });

  it('compares tokens, not characters: a shared character run that tokenises differently is not shared', () => {
    const o200k = getTokenizer('o200k_base');
    const base = 'You are a helpful assistant for a pet shop. Answer questions about the';
    const left = `${base} cat food aisle.`;
    const right = `${base} category pages.`;
    assert.ok(
      left.startsWith(`${base} cat`) && right.startsWith(`${base} cat`),
      'the texts share " cat" as characters',
    );
    const baseTokens = o200k.encode(base).length;
    assert.deepEqual(o200k.encode(left).slice(0, baseTokens), o200k.encode(right).slice(0, baseTokens));
    assert.notEqual(o200k.encode(left)[baseTokens], o200k.encode(right)[baseTokens]);
    const byCharacters = o200k.count(`${base} cat`) + 1;

    const a = analyser({ minTokens: 1, granularity: 1 }, 1, o200k);
    const fl = add(a, 'l', [['system', left]]);
    add(a, 'r', [['system', right]]);
    const g = a.groups()[0]!;
    assert.equal(g.sharedTokens, 1 + baseTokens);
    assert.ok(g.sharedTokens < byCharacters);
    assert.equal(g.members.find((m) => m.file === 'l')!.prefixEnd, fl.text.indexOf(' cat'));

    // A threshold the character prefix would reach but the token prefix does not: no group.
    const strict = analyser({ minTokens: 1, granularity: 1 }, byCharacters, o200k);
    add(strict, 'l', [['system', left]]);
    add(strict, 'r', [['system', right]]);
    assert.equal(strict.groups().length, 0);
  });

  it('updates incrementally to the same groups as a fresh analysis', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed % n;
    };
    const systems = [words(1100, 'a'), words(1100, 'b'), `${words(1050, 'a')} ${words(60, 'z')}`, words(300, 'c')];
    const incremental = analyser();
    const current = new Map<string, Array<[ChatRole, string]>>();
    for (let step = 0; step < 60; step++) {
      const file = `f${random(12)}`;
      if (random(5) === 0) {
        incremental.remove(file);
        current.delete(file);
      } else {
        const sections: Array<[ChatRole, string]> = [
          ['system', systems[random(systems.length)]!],
          ['user', `q${random(3)}`],
        ];
        add(incremental, file, sections);
        current.set(file, sections);
      }
      const fresh = analyser();
      for (const [f, s] of [...current].reverse()) add(fresh, f, s);
      assert.deepEqual(incremental.groups(), fresh.groups(), `after step ${step}`);
      assert.deepEqual(incremental.files().sort(), [...current.keys()].sort());
    }
  });
});

describe('sliced updates', () => {
  it('yields to the event loop between slices and ends with the same groups', async () => {
    const sources = Array.from({ length: 40 }, (_, i) => ({
      file: `f${i}`,
      ...promptFile([
        ['system', words(1100, i % 2 ? 'a' : 'b')],
        ['user', `q${i}`],
      ]),
    }));
    const sliced = analyser();
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    await updateInSlices(sliced, sources, 0);
    clearInterval(ticker);
    const whole = analyser();
    for (const s of sources) whole.update(s.file, s.text, s.parsed);
    assert.deepEqual(sliced.groups(), whole.groups());
    assert.ok(turns > 0, 'timers ran while files were being analysed');
  });
});

describe('near misses', () => {
  const system = (word: string) => `${words(10, 's')} ${word} ${words(1500, 's', 10)}`;

  it('reports where two system messages first differ and what they would share without it', () => {
    const a = analyser();
    const fa = add(a, 'a', [
      ['system', system('friendly')],
      ['user', 'one'],
    ]);
    add(a, 'b', [
      ['system', system('warm')],
      ['user', 'two'],
    ]);
    const miss = a.nearMiss('a')!;
    assert.equal(miss.other, 'b');
    assert.equal(miss.text, 'friendly');
    assert.equal(miss.otherText, 'warm');
    assert.equal(miss.range.start, fa.text.indexOf('friendly'));
    assert.equal(miss.sharedNow, 11);
    assert.equal(miss.sharedWithout, 1 + 10 + 1500);
    assert.equal(miss.cacheableWithout, 1504);
    const finding = a.findingsFor('a').find((f) => f.code === 'cache-near-miss')!;
    assert.equal(finding.severity, 'information');
    assert.match(
      finding.message,
      /differs from b \(line 2\) here — “friendly” vs “warm”; without this difference they would share 1,511 tokens \(1,504 cacheable\) instead of 11$/,
    );
  });

  it('finds the pair through matching endings when other files sort between them', () => {
    const a = analyser();
    add(a, 'a', [['system', `alpha ${words(1500, 's')}`]]);
    add(a, 'm', [['system', `beta ${words(40, 'x')}`]]);
    add(a, 'z', [['system', `gamma ${words(1500, 's')}`]]);
    assert.equal(a.nearMiss('a')?.other, 'z');
  });

  it('looks past files with the very same first message', () => {
    const a = analyser();
    for (let i = 0; i < 20; i++)
      add(a, `a${String(i).padStart(2, '0')}`, [
        ['system', `alpha ${words(1500, 's')}`],
        ['user', `q${i}`],
      ]);
    add(a, 'z', [['system', `gamma ${words(1500, 's')}`]]);
    assert.equal(a.nearMiss('a00')?.other, 'z');
  });

  it('ignores differences longer than the gap, and dynamic values (those are cache breakers)', () => {
    const a = analyser();
    add(a, 'a', [['system', `${words(50, 'x')} ${words(1500, 's')}`]]);
    add(a, 'b', [['system', `${words(50, 'y')} ${words(1500, 's')}`]]);
    assert.equal(a.nearMiss('a'), undefined);
    const d = analyser();
    add(d, 'a', [['system', `Today is {{today}} ${words(1500, 's')}`]]);
    add(d, 'b', [['system', `Today is {{date}} ${words(1500, 's')}`]]);
    assert.equal(d.nearMiss('a'), undefined);
  });
});

describe('cache breakers', () => {
  it('warns on a template variable before a long static part with the tokens that moving it would make cacheable', () => {
    const a = analyser();
    const f = add(a, 'a', [
      ['system', `Today is {{today}}\n${words(1500, 's')}`],
      ['user', 'Q: {{question}}'],
    ]);
    const [b, ...rest] = a.breakers('a');
    assert.equal(rest.length, 0);
    assert.equal(b!.kind, 'variable');
    assert.equal(f.text.slice(b!.range.start, b!.range.end), '{{today}}');
    // Static after it: 1,500 words, the user role token and "Q:"; before it: role token, "Today is".
    assert.equal(b!.staticTokensAfter, 1502);
    assert.equal(b!.cacheableNow, 0);
    assert.equal(b!.cacheableIfMoved, 1504);
    const finding = a.findingsFor('a').find((x) => x.code === 'cache-breaker')!;
    assert.equal(finding.severity, 'warning');
    assert.match(
      finding.message,
      /^Cache breaker: variable “\{\{today\}\}” changes per request and comes before 1,502 static tokens; moving it after them would make 1,504 tokens cacheable instead of 0 \(warm TTFT ≈\d+ ms faster on test model, 1 request at a time, 0 output tokens\)$/,
    );
  });

  it('literal dates, names, ids, UUIDs and times are static text: no breaker, no warning', () => {
    const a = analyser();
    add(a, 'n', [
      [
        'system',
        `Today is 2025-03-14. Session 9f1c2e4a-1b2c-4d3e-8f90-123456789abc at 10:30 for customer: Alice Johnson, order #A12345\n${words(1200, 's')}`,
      ],
      ['user', 'Q: {{question}}'],
    ]);
    assert.deepEqual(a.breakers('n'), []);
    assert.deepEqual(
      a.findingsFor('n').map((f) => f.code),
      [],
    );
    // The static prefix runs to the first real variable, past every literal value.
    assert.equal(a.staticPrefix('n')?.tokens, 1 + 13 + 1200 + 1 + 1);
  });

  it('with cache.dynamicHints, look-alikes are information hints that count the earlier ones', () => {
    const a = analyser(BLOCK_RULE, 1024, wordTokenizer, { dynamicHints: true });
    add(a, 'n', [
      [
        'system',
        `Session 9f1c2e4a-1b2c-4d3e-8f90-123456789abc at 10:30 for customer: Alice Johnson\n${words(1200, 's')}`,
      ],
    ]);
    assert.deepEqual(a.breakers('n'), []);
    assert.deepEqual(
      a.hints('n').map((b) => [b.kind, b.text, b.dynamicBefore]),
      [['name', 'Alice Johnson', 2]],
    );
    const hint = a.findingsFor('n').find((x) => x.code === 'dynamic-hint')!;
    assert.equal(hint.severity, 'information');
    assert.match(hint.message, /^Looks like a value you may template later: name “Alice Johnson” is static text now/);
    assert.deepEqual(analyser().hints('n'), [], 'off unless asked for');
  });

  it('detects template variables and control blocks, and counts earlier dynamic parts', () => {
    const a = analyser();
    add(a, 'v', [['system', `Hello {{user_name}}. ${words(1200, 's')}`]], {});
    assert.deepEqual(
      a.breakers('v').map((b) => [b.kind, b.text]),
      [['variable', '{{user_name}}']],
    );
    // A real parse: `{% if %}…{% endif %}` is one dynamic block, whatever static text it holds.
    const text = `system:\nYou help {{ customer }}.\n{% if vip %}\nOffer priority shipping.\n{% endif %}\n${words(1200, 's')}\n`;
    a.update('b.prompt', text, parsePrompt('b.prompt', text));
    const found = a.breakers('b.prompt');
    assert.deepEqual(
      found.map((b) => [b.kind, b.text.replace(/\n/g, ' '), b.dynamicBefore]),
      [['block', '{% if vip %} Offer priority shipping. {% endif %}', 1]],
    );
    assert.match(
      a.findingsFor('b.prompt').find((x) => x.code === 'cache-breaker')!.message,
      /moving it and the dynamic part before it after them/,
    );
  });

  it('warns when the static parts around a dynamic one only reach the provider minimum together', () => {
    const a = analyser(OPENAI_RULE);
    add(a, 'a', [
      ['system', `${words(599, 's')} {{today}} ${words(600, 't')}`],
      ['user', 'Q: {{question}}'],
    ]);
    const [b] = a.breakers('a');
    assert.equal(b?.staticTokensAfter, 602);
    assert.equal(b?.cacheableNow, 0);
    assert.equal(b?.cacheableIfMoved, 1152);
  });

  it('retrieval slots are named as such; a literal retrieved block is static (a hint when asked for)', () => {
    const a = analyser(BLOCK_RULE, 1024, wordTokenizer, { dynamicHints: true }, DEFAULT_FINDING_SETTINGS.rag);
    add(a, 'slot', [['system', `<context>\n{{context}}\n</context>\n${words(1500, 's')}`]], {
      context: words(50, 'd'),
    });
    assert.deepEqual(
      a.breakers('slot').map((b) => [b.kind, b.text, b.staticTokensAfter]),
      [['retrieved context', '{{context}}', 1501]],
    );
    add(a, 'literal', [
      ['system', `<context>\nPublished 2025-03-14 ${words(50, 'd')}\n</context>\n${words(1500, 's')}`],
    ]);
    assert.deepEqual(a.breakers('literal'), []);
    // The date inside the literal block is part of it, not a hint of its own.
    assert.deepEqual(
      a.hints('literal').map((b) => [b.kind, b.text]),
      [['literal retrieved context', '<context>']],
    );
  });

  it('what the user declares dynamic breaks the cache: the setting and a prompt-lens-dynamic pragma', () => {
    const a = analyser(BLOCK_RULE, 1024, wordTokenizer, { dynamicPatterns: ['Today is \\S+'] });
    add(a, 'a', [['system', `Today is Friday. ${words(1200, 's')}`]]);
    assert.deepEqual(
      a.breakers('a').map((b) => [b.kind, b.text]),
      [['declared', 'Today is Friday.']],
    );
    const p = analyser();
    add(p, 'b', [['system', `<!-- prompt-lens-dynamic Order #\\d+ -->\nOrder #4711 ${words(1200, 's')}`]]);
    assert.deepEqual(
      p.breakers('b').map((b) => [b.kind, b.text]),
      [['declared', 'Order #4711']],
    );
  });

  it('the static prefix ends at the first dynamic element in request order (system messages first)', () => {
    const a = analyser();
    // The user message comes first in the file, but the request sends the system message first.
    const f = add(a, 'a', [
      ['user', 'Q: {{question}}'],
      ['system', words(1500, 's')],
    ]);
    const prefix = a.staticPrefix('a')!;
    assert.equal(prefix.tokens, 1 + 1500 + 1 + 1);
    assert.equal(f.text.slice(prefix.endOffset, prefix.endOffset + 12), '{{question}}');
    assert.equal(prefix.dynamic?.text, '{{question}}');
    assert.equal(prefix.cacheableTokens, 1488);
    assert.deepEqual(a.breakers('a'), [], 'nothing static follows the variable');
  });

  it('for warm figures, a retrieved-context block written out in the file ends the static prefix too', () => {
    const a = analyser(BLOCK_RULE, 1024, wordTokenizer, {}, DEFAULT_FINDING_SETTINGS.rag);
    const f = add(a, 'a', [
      ['system', `${words(300, 's')}\n<documents>\n${words(500, 'd')}\n</documents>\n${words(100, 't')}`],
      ['user', 'Q: {{question}}'],
    ]);
    // Literal text is static: the plain static prefix runs past the documents to the variable.
    const literal = a.staticPrefix('a')!;
    assert.equal(literal.dynamic?.text, '{{question}}');
    assert.equal(literal.tokens, 1 + 300 + 2 + 500 + 100 + 1 + 1);
    const warm = a.staticPrefix('a', { endAtRetrievedContext: true })!;
    assert.equal(warm.dynamic?.kind, 'retrieved context');
    assert.equal(f.text.slice(warm.endOffset, warm.endOffset + 11), '<documents>');
    assert.equal(warm.tokens, 1 + 300);
    assert.equal(warm.cacheableTokens, 288);
    // Templated context ends it either way.
    add(a, 'b', [['system', `${words(300, 's')}\n{{retrieved_documents}}\n${words(500, 't')}`]], {
      retrieved_documents: 'doc',
    });
    assert.equal(a.staticPrefix('b')?.tokens, 1 + 300);
    assert.equal(a.staticPrefix('b', { endAtRetrievedContext: true })?.tokens, 1 + 300);
  });

  it('files never share a cache past a dynamic element, however alike their text', () => {
    const a = analyser();
    add(a, 'a', [['system', `Hi {{user}}. ${words(2000, 's')}`]]);
    add(a, 'b', [['system', `Hi {{user}}. ${words(2000, 's')}`]]);
    assert.equal(a.groupOf('a'), undefined);
    const s = analyser();
    add(s, 'a', [['system', `${words(2000, 's')} Hi {{user}}.`]]);
    add(s, 'b', [['system', `${words(2000, 's')} Hi {{user}}.`]]);
    assert.equal(s.groupOf('a')?.sharedTokens, 1 + 2000 + 1);
  });

  it('stays quiet when the static part after the dynamic one is short', () => {
    const a = analyser();
    add(a, 'a', [
      ['system', `${words(1500, 's')} Today is {{today}}.`],
      ['user', 'Q: {{question}}'],
    ]);
    assert.deepEqual(a.breakers('a'), []);
  });
});
