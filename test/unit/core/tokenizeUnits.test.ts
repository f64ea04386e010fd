import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chunkLengths, isSafeBoundary } from '../../../src/core/tokenize/boundaries';
import { CHAT_OVERHEAD, withChatOverhead } from '../../../src/core/tokenize/chatOverhead';
import { CountMemo } from '../../../src/core/tokenize/countMemo';
import { CHUNK_TARGET, IncrementalCounter } from '../../../src/core/tokenize/incremental';
import { tokenizerFor, tokenizerForModel } from '../../../src/core/tokenize/models';
import {
  getTokenizer,
  isTokenizerId,
  listTokenizers,
  loadedTokenizers,
  tokenizerInfo,
} from '../../../src/core/tokenize/registry';
import { countSliced } from '../../../src/core/tokenize/sliced';
import { estimateFromSamples, SAMPLE_CHARS, SAMPLE_WINDOWS } from '../../../src/core/tokenize/sampled';
import {
  DEFAULT_TOKENIZER,
  EXACT_TOKENIZER_IDS,
  TOKENIZER_IDS,
  type Tokenizer,
  type TokenizerId,
} from '../../../src/core/tokenize/types';

/**
 * Small, exact tests of the tokenize module's parts, with hand-derived values: what mutation testing
 * (npm run mutate, selection tokenize) needs to tell a changed line from the original quickly.
 */

/** A tokenizer that counts characters, and records what it was asked to count. */
function charCounter(): Tokenizer & { seen: string[] } {
  const seen: string[] = [];
  const countBase = (text: string): number => (seen.push(text), text.length);
  return {
    id: 'approximate',
    exact: false,
    seen,
    countBase,
    countChunks: (text) => [{ length: text.length, tokens: text.length }],
    finish: (n) => n * 2,
    count: (text) => 2 * countBase(text),
    encode: () => [],
  };
}

describe('estimateFromSamples', () => {
  it('counts a text that fits in the windows exactly, with one count call', () => {
    const tokenizer = charCounter();
    const text = 'x'.repeat(SAMPLE_WINDOWS * SAMPLE_CHARS);
    assert.equal(estimateFromSamples(text, tokenizer), 2 * text.length);
    assert.deepEqual(
      tokenizer.seen.map((s) => s.length),
      [text.length],
    );
  });

  it('counts SAMPLE_WINDOWS evenly spaced windows of a longer text and scales them to its length', () => {
    const tokenizer = charCounter();
    const length = SAMPLE_WINDOWS * SAMPLE_CHARS * 2 + 32;
    const text = 'b'.repeat(length);
    assert.equal(estimateFromSamples(text, tokenizer), 2 * length);
    assert.equal(tokenizer.seen.length, SAMPLE_WINDOWS);
    assert.ok(tokenizer.seen.every((s) => s.length === SAMPLE_CHARS));
  });

  it('scales the samples’ tokens per character: half the characters sampled count, the estimate is the rate × length', () => {
    const length = SAMPLE_WINDOWS * SAMPLE_CHARS * 4;
    const stride = length / SAMPLE_WINDOWS;
    // Tokens only in the first quarter of each stride, which is exactly the window: rate 1 per char there.
    const text = Array.from(
      { length: SAMPLE_WINDOWS },
      () => 'a'.repeat(SAMPLE_CHARS) + ' '.repeat(stride - SAMPLE_CHARS),
    ).join('');
    const tokenizer: Tokenizer = { ...charCounter(), countBase: (t) => t.split('a').length - 1, finish: (n) => n };
    // The windows hold only 'a's: 1 token per sampled character, scaled to the whole length.
    assert.equal(estimateFromSamples(text, tokenizer), length);
  });

  it('never starts or ends a window in the middle of a surrogate pair', () => {
    const tokenizer = charCounter();
    const text = '😀'.repeat(SAMPLE_WINDOWS * SAMPLE_CHARS);
    estimateFromSamples(text, tokenizer);
    for (const sample of tokenizer.seen) {
      assert.ok(!/^[\uDC00-\uDFFF]/.test(sample), 'starts on a low surrogate');
      assert.ok(!/[\uD800-\uDBFF]$/.test(sample), 'ends on a high surrogate');
    }
  });
});

describe('estimateFromSamples, where the windows fall', () => {
  it('samples evenly spaced windows: half the text counting 1 per character, half 0, is estimated at half', () => {
    const length = 4 * SAMPLE_WINDOWS * SAMPLE_CHARS;
    const text = 'a'.repeat(length / 2) + ' '.repeat(length / 2);
    // Windows start at i × length/16: eight in the a's, eight in the spaces.
    const tokenizer: Tokenizer = { ...charCounter(), countBase: (t) => t.split('a').length - 1, finish: (n) => n };
    assert.equal(estimateFromSamples(text, tokenizer), length / 2);
  });

  it('leaves a window where it falls on any character that is not the second half of a pair (U+FF01)', () => {
    const tokenizer = charCounter();
    // 16-character blocks that start with U+FF01; windows start and end on multiples of 32,768 and 16,384.
    const text = ('\uFF01' + 'b'.repeat(15)).repeat((2 * SAMPLE_WINDOWS * SAMPLE_CHARS) / 16);
    estimateFromSamples(text, tokenizer);
    const stride = text.length / SAMPLE_WINDOWS;
    assert.deepEqual(
      tokenizer.seen,
      Array.from({ length: SAMPLE_WINDOWS }, (_, i) => text.slice(i * stride, i * stride + SAMPLE_CHARS)),
    );
  });

  // After one 'a', every window but the first starts on an even index: the second half of a pair, which it moves past.
  for (const [name, pair] of [
    ['U+10000 (low surrogate DC00)', '\u{10000}'],
    ['U+103FF (low surrogate DFFF)', '\u{103FF}'],
  ] as const)
    it(`moves a window's start and end off the second half of a surrogate pair: ${name}`, () => {
      const tokenizer = charCounter();
      estimateFromSamples('a' + pair.repeat(SAMPLE_WINDOWS * SAMPLE_CHARS), tokenizer);
      assert.equal(tokenizer.seen.length, SAMPLE_WINDOWS);
      // The first starts on the 'a', at an odd index, and its end (an even index) moves one on.
      assert.equal(tokenizer.seen[0], 'a' + pair.repeat(SAMPLE_CHARS / 2));
      for (const sample of tokenizer.seen.slice(1)) {
        assert.ok(sample.startsWith(pair), 'starts on a whole character');
        assert.ok(sample.endsWith(pair), 'ends on a whole character');
        assert.equal(sample.length, SAMPLE_CHARS);
      }
    });
});

interface Vectors {
  texts: Record<string, string>;
  /** Per tokenizer: each text's ids (byte-level families), or its count (SentencePiece families, long texts). */
  expected: Record<string, Record<string, number[] | number>>;
}
const VECTORS = JSON.parse(
  readFileSync(join(__dirname, '../../fixtures/tokenize/reference-ids.json'), 'utf8'),
) as Vectors;

describe('each exact tokenizer on texts that reach every path of its engine (ids from its reference)', () => {
  for (const [id, expected] of Object.entries(VECTORS.expected)) {
    it(`${id}: ids, count, and chunk counts as the reference (test/fixtures/tokenize/generate.ts)`, () => {
      const tokenizer = getTokenizer(id as TokenizerId);
      for (const [name, want] of Object.entries(expected)) {
        const text = VECTORS.texts[name] as string;
        const count = typeof want === 'number' ? want : want.length;
        if (typeof want !== 'number') assert.deepEqual(tokenizer.encode(text), want, name);
        assert.equal(tokenizer.encode(text).length, count, `${name}: ids`);
        assert.equal(tokenizer.count(text), count, `${name}: count`);
        assert.equal(tokenizer.countBase(text), count, `${name}: base count`);
        const chunks = tokenizer.countChunks(text, 4);
        assert.equal(
          chunks.reduce((n, c) => n + c.tokens, 0),
          count,
          `${name}: chunks`,
        );
        assert.equal(
          chunks.reduce((n, c) => n + c.length, 0),
          text.length,
          `${name}: chunk lengths`,
        );
      }
      assert.equal(tokenizer.exact, true);
      assert.equal(tokenizer.id, id);
      assert.equal(tokenizer.finish(17), 17);
      assert.deepEqual(tokenizer.countChunks('', 4), []);
      assert.equal(tokenizer.count(''), 0);
      assert.deepEqual(tokenizer.encode(''), []);
    });
  }
});

describe('countChunks of the tiktoken-style engine', () => {
  const o200k = getTokenizer('o200k_base');

  it('cuts after the first piece that reaches the target, at a safe boundary, never at the end', () => {
    // Pieces: "hello" (5), " world" (6), " foo" (4): one token each.
    assert.deepEqual(o200k.countChunks('hello world foo', 1), [
      { length: 5, tokens: 1 },
      { length: 6, tokens: 1 },
      { length: 4, tokens: 1 },
    ]);
    assert.deepEqual(o200k.countChunks('hello world foo', 6), [
      { length: 11, tokens: 2 },
      { length: 4, tokens: 1 },
    ]);
    assert.deepEqual(o200k.countChunks('hello world foo', 5), [
      { length: 5, tokens: 1 },
      { length: 6, tokens: 1 },
      { length: 4, tokens: 1 },
    ]);
    assert.deepEqual(o200k.countChunks('hello world foo', 15), [{ length: 15, tokens: 3 }]);
    // A chunk's length counts from its own start: after the cut at 11, " foo" (4) is short of 6, " bar" ends the text.
    assert.deepEqual(o200k.countChunks('hello world foo bar', 6), [
      { length: 11, tokens: 2 },
      { length: 8, tokens: 2 },
    ]);
    assert.deepEqual(o200k.countChunks('hello world foo', Infinity), [{ length: 15, tokens: 3 }]);
  });

  it('does not cut where the boundary is unsafe (a space run before a word)', () => {
    // "a", "  " ... whitespace then a letter: `\s+(?!\S)` leaves the last space to " b".
    assert.deepEqual(
      o200k.countChunks('a   b', 1).map((c) => c.length),
      [1, 4],
    );
  });

  it('the families that normalise or pre-split keep the whole text as one chunk', () => {
    for (const id of ['qwen2', 'deepseek-v3', 'gemma3', 'mistral'] as const) {
      const tokenizer = getTokenizer(id);
      assert.deepEqual(tokenizer.countChunks('hello world foo', 1), [
        { length: 15, tokens: tokenizer.count('hello world foo') },
      ]);
    }
  });
});

describe('tokenizer registry', () => {
  it('describes every tokenizer: exact ones without an error, approximations with one', () => {
    assert.deepEqual(
      listTokenizers().map((t) => t.id),
      [...TOKENIZER_IDS],
    );
    for (const info of listTokenizers()) {
      assert.ok(info.description.length > 10, info.id);
      assert.equal(info.exact, (EXACT_TOKENIZER_IDS as readonly string[]).includes(info.id), info.id);
      if (info.exact) assert.equal(info.error, undefined, info.id);
      else assert.ok((info.error ?? '').length > 20, info.id);
    }
    assert.deepEqual(tokenizerInfo('o200k_base'), {
      id: 'o200k_base',
      exact: true,
      description: 'OpenAI o200k_base (GPT-4o, GPT-4.1, o-series, GPT-5, gpt-oss)',
    });
    assert.match(tokenizerInfo('claude').error ?? '', /assumption/);
    assert.equal(DEFAULT_TOKENIZER, 'o200k_base');
  });

  it('keeps one instance per id, and lists what it has loaded', () => {
    assert.equal(getTokenizer('cl100k_base'), getTokenizer('cl100k_base'));
    assert.ok(loadedTokenizers().includes('cl100k_base'));
    assert.equal(isTokenizerId('gemma3'), true);
    assert.equal(isTokenizerId('gemma'), false);
  });

  it('scales each approximation by its factor, rounding, on o200k_base counts and ids', () => {
    const o200k = getTokenizer('o200k_base');
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(9); // 90 o200k tokens
    const base = o200k.count(text);
    for (const [id, factor] of [
      ['tekken', 1.15],
      ['gemini', 1.145],
      ['claude', 1.2],
      ['approximate', 1],
    ] as const) {
      const tokenizer = getTokenizer(id);
      assert.equal(tokenizer.exact, false, id);
      assert.equal(tokenizer.id, id);
      assert.equal(tokenizer.countBase(text), base, id);
      assert.equal(tokenizer.count(text), Math.round(base * factor), id);
      assert.equal(tokenizer.finish(200), Math.round(200 * factor), id);
      assert.deepEqual(tokenizer.countChunks(text, 50), o200k.countChunks(text, 50), id);
      assert.deepEqual(tokenizer.encode('hello world'), [24912, 2375], id);
    }
    assert.equal(getTokenizer('gemini').finish(100), 115); // 114.5 rounds up
  });

  it('lists each family’s special tokens', () => {
    const o200k = getTokenizer('o200k_base').specials ?? [];
    assert.deepEqual([o200k[0], o200k.length], ['<|startoftext|>', 10]);
    assert.ok(o200k.includes('<|message|>'));
    const llama3 = getTokenizer('llama3').specials ?? [];
    assert.deepEqual(
      [llama3[0], llama3[7], llama3[8], llama3[255], llama3.length],
      ['<|begin_of_text|>', '<|python_tag|>', '<|reserved_special_token_0|>', '<|reserved_special_token_247|>', 256],
    );
    assert.ok((getTokenizer('qwen2').specials ?? []).includes('<|im_start|>'));
    assert.ok((getTokenizer('gemma3').specials ?? []).includes('<start_of_turn>'));
    assert.equal(getTokenizer('cl100k_base').specials, undefined);
  });
});

describe('model names to tokenizers', () => {
  it('takes tokenizer ids as they are, no name as the default, and reads names case- and path-blind', () => {
    assert.equal(tokenizerFor(undefined), 'o200k_base');
    assert.equal(tokenizerFor('qwen2'), 'qwen2');
    assert.equal(tokenizerFor('claude'), 'claude');
    assert.equal(tokenizerFor('Qwen/Qwen2.5-7B-Instruct'), 'qwen2');
    assert.equal(tokenizerFor('  GPT-4o  '), 'o200k_base');
    assert.equal(tokenizerFor('azure/openai/gpt-4'), 'cl100k_base');
    assert.equal(tokenizerFor('x-gpt-4o'), 'approximate');
    assert.equal(tokenizerForModel('ministral-8b'), 'tekken');
    assert.equal(tokenizerForModel('gemma-2-9b'), 'gemma3');
    assert.equal(tokenizerForModel('open-mistral-7b'), 'mistral');
    assert.equal(tokenizerForModel('open-mistral-nemo'), 'tekken');
  });
});

describe('chat overhead', () => {
  it('adds each family’s tokens per message and per request, and none without messages', () => {
    const expected: Record<TokenizerId, [number, number]> = {
      o200k_base: [4, 3],
      cl100k_base: [4, 3],
      llama3: [5, 5],
      qwen2: [5, 3],
      'deepseek-v3': [1, 2],
      mistral: [2, 1],
      tekken: [2, 1],
      gemma3: [5, 4],
      claude: [0, 0],
      gemini: [0, 0],
      approximate: [0, 0],
    };
    for (const id of TOKENIZER_IDS) {
      const [perMessage, perRequest] = expected[id];
      assert.equal(withChatOverhead(10, 3, id), 10 + 3 * perMessage + perRequest, id);
      assert.equal(withChatOverhead(10, 0, id), 10, id);
      assert.ok(CHAT_OVERHEAD[id].rule.length > 20, id);
    }
  });
});

describe('safe boundaries', () => {
  const safe = (text: string, at: number): boolean => isSafeBoundary(text, at);

  it('the text’s ends are safe', () => {
    assert.equal(safe('ab', 0), true);
    assert.equal(safe('ab', 2), true);
    assert.equal(safe('ab', -1), true);
    assert.equal(safe('ab', 3), true);
  });

  it('after a newline: safe before anything but whitespace and /', () => {
    assert.equal(safe('\na', 1), true);
    assert.equal(safe('\n.', 1), true);
    assert.equal(safe('\n/', 1), false);
    assert.equal(safe('\n ', 1), false);
    assert.equal(safe('\n\n', 1), false);
    assert.equal(safe('\n\u3000', 1), false);
  });

  it('after other whitespace: never', () => {
    assert.equal(safe(' a', 1), false);
    assert.equal(safe('\ta', 1), false);
    assert.equal(safe('\u00a0.', 1), false);
  });

  it('after a letter: before what no letter run takes', () => {
    assert.equal(safe('a1', 1), true);
    assert.equal(safe('a.', 1), true);
    assert.equal(safe('a ', 1), true);
    assert.equal(safe('ab', 1), false);
    assert.equal(safe('a\u0301', 1), false);
    assert.equal(safe("a'", 1), false);
    assert.equal(safe('a𝐀', 1), false, 'an astral letter is a letter');
  });

  it('after a digit: before a non-digit', () => {
    assert.equal(safe('1a', 1), true);
    assert.equal(safe('1.', 1), true);
    assert.equal(safe('12', 1), false);
    assert.equal(safe('1٣', 1), false);
  });

  it('after anything else: before whitespace that is not a line end', () => {
    assert.equal(safe('. ', 1), true);
    assert.equal(safe('.\u3000', 1), true);
    assert.equal(safe('.\r', 1), false);
    assert.equal(safe('.\n', 1), false);
    assert.equal(safe('.a', 1), false);
    assert.equal(safe('..', 1), false);
  });

  it('chunkLengths cuts at the first safe boundary at or after each target, inside [start, end)', () => {
    const text = 'aaaa bbbb cccc';
    assert.deepEqual(chunkLengths(text, 0, text.length, 3), [4, 5, 5]);
    assert.deepEqual(chunkLengths(text, 0, text.length, 4), [4, 5, 5]);
    assert.deepEqual(chunkLengths(text, 0, text.length, 100), [14]);
    assert.deepEqual(chunkLengths(text, 5, 9, 2), [4]);
    assert.deepEqual(chunkLengths(text, 4, 4, 2), []);
  });
});

describe('IncrementalCounter, exactly', () => {
  const o200k = getTokenizer('o200k_base');
  const text = 'hello world foo bar'; // 4 tokens, chunks of ≥ 5: "hello", " world", " foo bar"

  it('is built in slices (create) with the same chunks as at once', async () => {
    const counter = await IncrementalCounter.create(o200k, text, 0, 5);
    assert.equal(counter.count, 4);
    assert.equal(counter.length, text.length);
    assert.equal(counter.currentText, text);
    // Same chunks: the same edit re-counts the same region.
    const direct = new IncrementalCounter(o200k, text, 5);
    assert.equal(
      counter.apply({ offset: 6, removed: 5, inserted: 'there' }),
      direct.apply({ offset: 6, removed: 5, inserted: 'there' }),
    );
    assert.equal(counter.currentText, 'hello there foo bar');
  });

  it('create counts a text longer than a window', async () => {
    const big = 'word '.repeat(20_000);
    const counter = await IncrementalCounter.create(o200k, big);
    assert.equal(counter.count, o200k.count(big));
    assert.equal(counter.length, big.length);
    assert.equal(counter.apply({ offset: big.length, removed: 0, inserted: 'end' }), o200k.count(`${big}end`));
  });

  it('tells whether its text is a given text without joining it', () => {
    const counter = new IncrementalCounter(o200k, text, 5);
    assert.equal(counter.hasText(text), true);
    assert.equal(counter.hasText('hello world foo baz'), false);
    assert.equal(counter.hasText('Hello world foo bar'), false);
    assert.equal(counter.hasText(`${text} `), false);
    counter.apply({ offset: 0, removed: 5, inserted: 'howdy' });
    assert.equal(counter.hasText('howdy world foo bar'), true);
    assert.equal(counter.hasText(text), false);
  });

  it('clamps edits outside the text, and keeps its length', () => {
    const counter = new IncrementalCounter(o200k, text, 5);
    assert.equal(counter.apply({ offset: -3, removed: 0, inserted: 'oh ' }), o200k.count(`oh ${text}`));
    assert.equal(counter.length, text.length + 3);
    assert.equal(counter.apply({ offset: 1000, removed: 4, inserted: '!' }), o200k.count(`oh ${text}!`));
    assert.equal(counter.apply({ offset: 3, removed: 1000, inserted: '' }), o200k.count('oh '));
    assert.equal(counter.currentText, 'oh ');
    assert.equal(counter.length, 3);
    assert.equal(counter.apply({ offset: 0, removed: 3, inserted: '' }), 0);
    assert.equal(counter.length, 0);
    assert.equal(counter.apply({ offset: 0, removed: 0, inserted: 'abc def' }), 2);
  });

  it('re-counts the chunk before an edit at a chunk boundary: 12|⎵45 + 3 is 123⎵45, 3 tokens', () => {
    // Chunks "12" and " 45" (safe after a digit before a non-digit); digits group by three.
    const counter = new IncrementalCounter(o200k, '12 45', 1);
    assert.equal(counter.count, 3);
    assert.equal(counter.apply({ offset: 2, removed: 0, inserted: '3' }), 3);
    assert.equal(o200k.count('123 45'), 3);
    assert.equal(o200k.count('12') + o200k.count('3 45'), 4);
  });

  it('updateTo: the same text is no edit; another is one edit between common start and end', () => {
    const counter = new IncrementalCounter(o200k, text, 5);
    assert.equal(counter.updateTo(text), 4);
    assert.equal(counter.updateTo('hello big world foo bar'), 5);
    assert.equal(counter.currentText, 'hello big world foo bar');
    assert.equal(counter.updateTo('world'), 1);
    assert.equal(counter.updateTo(''), 0);
    assert.equal(counter.length, 0);
  });

  it('counts approximations by their base count, scaled once at the end', () => {
    const claude = getTokenizer('claude');
    const counter = new IncrementalCounter(claude, text.repeat(10), 5);
    assert.equal(counter.count, claude.count(text.repeat(10)));
    assert.equal(counter.count, Math.round(1.2 * o200k.count(text.repeat(10))));
  });
});

describe('countSliced and CountMemo, exactly', () => {
  const o200k = getTokenizer('o200k_base');

  it('reports progress after each slice (every chunk when sliceMs is 0) and 1 at the end', async () => {
    const text = 'Some prose and code();\n'.repeat(400);
    const lengths = chunkLengths(text, 0, text.length, CHUNK_TARGET);
    assert.ok(lengths.length >= 3);
    const progress: number[] = [];
    const result = await countSliced(text, o200k, { sliceMs: 0, onProgress: (p) => progress.push(p) });
    let done = 0;
    const expected = lengths.slice(0, -1).map((l) => (done += l) / text.length);
    assert.deepEqual(progress, [...expected, 1]);
    assert.equal(result.tokens, o200k.count(text));
    assert.ok(result.longestSliceMs >= 0);
  });

  it('counts empty text as 0, scales approximations once, and runs to the end when not aborted', async () => {
    const progress: number[] = [];
    assert.equal((await countSliced('', o200k, { onProgress: (p) => progress.push(p) })).tokens, 0);
    assert.deepEqual(progress, [1]);
    const text = ' word'.repeat(3000);
    assert.equal((await countSliced(text, getTokenizer('claude'))).tokens, getTokenizer('claude').count(text));
    const signal = new AbortController().signal;
    assert.equal((await countSliced(text, o200k, { sliceMs: 0, signal })).tokens, 3000);
  });

  it('CountMemo.countAsync counts a long text in slices once, and a short one as count() does', async () => {
    const seen: number[] = [];
    const spy: Tokenizer = {
      ...o200k,
      count: (t) => (seen.push(t.length), o200k.count(t)),
      countBase: (t) => (seen.push(-t.length), o200k.countBase(t)),
    };
    const memo = new CountMemo(spy);
    const long = ' word'.repeat(7000); // 35,000 characters: over the sliced threshold
    assert.equal(await memo.countAsync(long, 0), 7000);
    assert.ok(seen.length > 1 && seen.every((n) => n < 0), 'counted in slices');
    seen.length = 0;
    assert.equal(await memo.countAsync(long), 7000);
    assert.equal(memo.count(long), 7000);
    assert.deepEqual(seen, [], 'remembered');
    assert.equal(await memo.countAsync('hello world'), 2);
    assert.deepEqual(seen, [11]);
    const short = 'x'.repeat(32_767);
    await memo.countAsync(short);
    assert.deepEqual(seen, [11, 32_767], 'under the threshold: one count');
  });
});

describe('IncrementalCounter.updateTo on texts longer than a compare block (4,096 characters)', () => {
  const o200k = getTokenizer('o200k_base');
  const words = (n: number): string => ' word'.repeat(n); // n tokens, 5n characters

  // The edit is found from the common start and end; a wrong one leaves other text in the chunks than `after`.
  const cases: Record<string, [before: string, after: string]> = {
    'a change in the first block': [words(2000), ' ward' + words(1999)],
    'a change in the last block': [words(2000), words(1999) + ' ward'],
    'text added at the end': [words(1000), words(2000)],
    'text added at the start': [words(1000), 'x' + words(2000)],
    'text removed at the end': [words(2000), words(1000)],
    'the same start and end, 8,195 characters apart': [
      words(1000) + words(1000),
      words(1000) + 'y'.repeat(8195) + words(1000),
    ],
  };
  for (const [name, [before, after]] of Object.entries(cases))
    it(name, () => {
      const counter = new IncrementalCounter(o200k, before, 256);
      assert.equal(counter.updateTo(after), o200k.count(after));
      assert.equal(counter.length, after.length);
      assert.ok(counter.hasText(after), 'the chunks hold the new text');
    });
});

describe('countSliced on a scripted clock (performance.now replaced: no real time is measured)', () => {
  const o200k = getTokenizer('o200k_base');
  const text = 'Some prose and code();\n'.repeat(400);
  const lengths = chunkLengths(text, 0, text.length, CHUNK_TARGET);
  let clock = 0;
  const realNow = performance.now;
  beforeEach(() => {
    clock = 1e12;
    performance.now = () => clock;
  });
  afterEach(() => {
    performance.now = realNow;
  });
  /** o200k_base whose first count takes 30 ms on the clock and every other one 10 ms. */
  const slow: Tokenizer = {
    ...o200k,
    countBase: (t) => {
      clock += clock === 1e12 ? 30 : 10;
      return o200k.countBase(t);
    },
  };
  const after = (n: number): number => lengths.slice(0, n).reduce((s, l) => s + l, 0) / text.length;

  it('yields after every chunk that ends a slice of ≥ 8 ms by default, and reports the longest slice', async () => {
    assert.ok(lengths.length >= 3);
    const progress: number[] = [];
    const result = await countSliced(text, slow, { onProgress: (p) => progress.push(p) });
    assert.deepEqual(progress, [...lengths.slice(0, -1).map((_, i) => after(i + 1)), 1]);
    assert.equal(result.longestSliceMs, 30);
    assert.equal(result.tokens, o200k.count(text));
  });

  it('yields when a slice has run exactly sliceMs (10 ms slices of 10 ms counts)', async () => {
    const progress: number[] = [];
    await countSliced(text, slow, { sliceMs: 10, onProgress: (p) => progress.push(p) });
    assert.deepEqual(progress, [...lengths.slice(0, -1).map((_, i) => after(i + 1)), 1]);
  });

  it('never yields inside a slice: with a 1,000,000 ms slice, progress is only the end', async () => {
    const progress: number[] = [];
    const result = await countSliced(text, slow, { sliceMs: 1e6, onProgress: (p) => progress.push(p) });
    assert.deepEqual(progress, [1]);
    assert.equal(result.longestSliceMs, 30 + 10 * (lengths.length - 1));
  });
});

describe('CountMemo’s bound: total characters kept, least recently used out first', () => {
  function spy(): { tokenizer: Tokenizer; seen: string[] } {
    const o200k = getTokenizer('o200k_base');
    const seen: string[] = [];
    return { seen, tokenizer: { ...o200k, count: (t) => (seen.push(t), o200k.count(t)) } };
  }

  it('keeps texts while their lengths add up to at most maxChars, dropping the least recently used', () => {
    const { tokenizer, seen } = spy();
    const memo = new CountMemo(tokenizer, 10);
    memo.count('aaaa');
    memo.count('bbbb');
    memo.count('aaaa'); // a hit: aaaa is now the most recently used
    memo.count('cc'); // 10 characters kept: nothing goes
    assert.deepEqual(seen, ['aaaa', 'bbbb', 'cc']);
    memo.count('bbbb');
    memo.count('aaaa');
    memo.count('cc');
    assert.deepEqual(seen, ['aaaa', 'bbbb', 'cc'], 'all three kept');
    memo.count('d'); // 11: the least recently used (bbbb) goes, 7 left
    memo.count('aaaa');
    memo.count('cc');
    memo.count('d');
    assert.deepEqual(seen, ['aaaa', 'bbbb', 'cc', 'd'], 'aaaa, cc and d kept');
    memo.count('bbbb'); // counted again; 11 → aaaa goes
    assert.deepEqual(seen, ['aaaa', 'bbbb', 'cc', 'd', 'bbbb']);
    memo.count('cc');
    memo.count('d');
    memo.count('aaaa');
    assert.deepEqual(seen, ['aaaa', 'bbbb', 'cc', 'd', 'bbbb', 'aaaa']);
  });

  it('keeps a text of exactly maxChars (alone), and never one longer', () => {
    const { tokenizer, seen } = spy();
    const memo = new CountMemo(tokenizer, 10);
    memo.count('x'.repeat(11));
    memo.count('x'.repeat(11));
    memo.count('y'.repeat(10));
    memo.count('y'.repeat(10));
    assert.deepEqual(
      seen.map((t) => t.length),
      [11, 11, 10],
    );
  });

  it('storing a text longer than maxChars never pushes the others out', () => {
    const { tokenizer, seen } = spy();
    const memo = new CountMemo(tokenizer, 10);
    memo.count('a');
    memo.count('x'.repeat(11));
    memo.count('a');
    assert.deepEqual(seen, ['a', 'x'.repeat(11)]);
  });

  it('countAsync passes its slice length on: with 0 ms slices it yields to the event loop (clock stopped)', async () => {
    const realNow = performance.now;
    performance.now = () => 0;
    try {
      const memo = new CountMemo(getTokenizer('o200k_base'));
      let ran = false;
      setImmediate(() => (ran = true));
      await memo.countAsync(' word'.repeat(7000), 0);
      assert.equal(ran, true, 'yielded');
      let ranAgain = false;
      setImmediate(() => (ranAgain = true));
      await new CountMemo(getTokenizer('o200k_base')).countAsync(' word'.repeat(7000));
      assert.equal(ranAgain, false, 'with the default 8 ms and a stopped clock it never yields');
    } finally {
      performance.now = realNow;
    }
  });

  it('countAsync: from 32,768 characters a text is counted in slices', async () => {
    const o200k = getTokenizer('o200k_base');
    const calls: string[] = [];
    const tokenizer: Tokenizer = {
      ...o200k,
      count: (t) => (calls.push('count'), o200k.count(t)),
      countBase: (t) => (calls.push('slice'), o200k.countBase(t)),
    };
    const memo = new CountMemo(tokenizer);
    assert.equal(await memo.countAsync('x'.repeat(32_768), 0), o200k.count('x'.repeat(32_768)));
    assert.ok(calls.length > 0 && calls.every((c) => c === 'slice'));
  });
});
