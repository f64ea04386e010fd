import assert from 'node:assert/strict';
import fc from 'fast-check';
import { cappedRuns, fuzzParams } from '../helpers/fuzz';
import { hardText } from '../helpers/hardText';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { chunkLengths, isSafeBoundary } from '../../../src/core/tokenize/boundaries';
import { applyEdits, IncrementalCounter, type TextEdit } from '../../../src/core/tokenize/incremental';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { CountMemo } from '../../../src/core/tokenize/countMemo';
import { countSliced } from '../../../src/core/tokenize/sliced';
import type { TokenizerId } from '../../../src/core/tokenize/types';

// Adversarial pieces: whitespace runs, CRLF, digits, CJK, emoji (surrogates, ZWJ, skin tones),
// apostrophes/contractions, `/` after newlines (o200k joins `[\r\n/]*`), combining marks, title-case and
// astral letters, Arabic-Indic digits, punctuation next to letters.
const PIECES = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\n\n',
  ' \n',
  '/',
  '//',
  "'s",
  "'",
  "'LL",
  '\u2019',
  'a',
  'Ab',
  'ABC',
  'word',
  'é',
  '\u0301',
  'e\u0301',
  'ǅ',
  '1',
  '123',
  '4567',
  '٣',
  'नमस्ते',
  'हिन्दी',
  'a\u0308',
  '𠮷野',
  '你好',
  '世界。',
  '，',
  '𝐀𝐛',
  '👋🏽',
  '👨‍👩‍👧',
  '{',
  '}',
  '"',
  ':',
  '.',
  ',',
  '-',
  '_',
  '<|endoftext|>',
  '\u00a0',
  '\u3000',
  '\u0085',
  '\uFEFF',
  '\u2028',
  "'\u017F",
  '\uD800',
];
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((parts) => parts.join(''));
const SEED = 20260530;
const IDS: TokenizerId[] = ['o200k_base', 'cl100k_base'];

describe('incremental tokenisation', () => {
  for (const id of IDS) {
    const tokenizer = getTokenizer(id);

    it(`${id}: counts summed over safe chunks equal the whole-text count (property)`, () => {
      fc.assert(
        fc.property(text, fc.integer({ min: 1, max: 6 }), (t, target) => {
          let from = 0;
          const sum = chunkLengths(t, 0, t.length, target).reduce((total, length) => {
            const n = tokenizer.countBase(t.slice(from, from + length));
            from += length;
            return total + n;
          }, 0);
          assert.equal(sum, tokenizer.count(t), JSON.stringify(t));
        }),
        fuzzParams(SEED, 400),
      );
    });

    it(`${id}: countChunks cuts only at safe boundaries, and each chunk counts alone as in the whole (property)`, () => {
      fc.assert(
        fc.property(hardText(30), fc.integer({ min: 1, max: 64 }), (t, target) => {
          const chunks = tokenizer.countChunks(t, target);
          let from = 0;
          for (const [i, chunk] of chunks.entries()) {
            const piece = t.slice(from, from + chunk.length);
            assert.ok(chunk.length >= target || i === chunks.length - 1, `short chunk ${i}`);
            assert.equal(chunk.tokens, tokenizer.countBase(piece), JSON.stringify(piece));
            from += chunk.length;
            assert.ok(isSafeBoundary(t, from), `cut at ${from} of ${JSON.stringify(t)}`);
          }
          assert.equal(from, t.length);
        }),
        fuzzParams(SEED, 300),
      );
    });

    it(`${id}: incremental counts after random edits equal a fresh count (property)`, () => {
      const edit = fc.record({ at: fc.nat(), removed: fc.nat({ max: 8 }), inserted: text });
      fc.assert(
        fc.property(
          text,
          fc.array(edit, { minLength: 1, maxLength: 6 }),
          fc.integer({ min: 1, max: 8 }),
          (initial, edits, target) => {
            const counter = new IncrementalCounter(tokenizer, initial, target);
            for (const e of edits) {
              const offset = e.at % (counter.currentText.length + 1);
              const count = counter.apply({ offset, removed: e.removed, inserted: e.inserted });
              assert.equal(count, tokenizer.count(counter.currentText), JSON.stringify(counter.currentText));
            }
          },
        ),
        fuzzParams(SEED, 150),
      );
    });
  }

  it('a one-character edit in a large text re-counts only nearby chunks', () => {
    const tokenizer = getTokenizer('o200k_base');
    const big = 'Hello world, this is a line.\n'.repeat(2000);
    let counted = 0;
    const spy = {
      ...tokenizer,
      countChunks: (t: string, target: number) => ((counted += t.length), tokenizer.countChunks(t, target)),
    };
    const counter = new IncrementalCounter(spy, big);
    counted = 0;
    counter.apply({ offset: 30_000, removed: 0, inserted: 'x' });
    assert.ok(counted < 10_000, `re-tokenised ${counted} characters`);
    assert.equal(counter.count, tokenizer.count(counter.currentText));
  });

  it('countSliced yields between slices and gives the whole-text count', async () => {
    const tokenizer = getTokenizer('o200k_base');
    const big = 'Some prose and code();\n'.repeat(20_000);
    let progress = 0;
    const result = await countSliced(big, tokenizer, { sliceMs: 1, onProgress: (p) => (progress = p) });
    assert.equal(result.tokens, tokenizer.count(big));
    assert.equal(progress, 1);
    const aborted = new AbortController();
    aborted.abort(new Error('stop'));
    await assert.rejects(countSliced(big, tokenizer, { sliceMs: 0, signal: aborted.signal }), /stop/);
  });
});

describe('CountMemo', () => {
  it('re-tokenises only texts it has not seen, within its size bound', () => {
    const tokenizer = getTokenizer('o200k_base');
    const seen: string[] = [];
    const spy = { ...tokenizer, count: (t: string) => (seen.push(t), tokenizer.count(t)) };
    const memo = new CountMemo(spy, 10);
    assert.equal(memo.count('hello world'), 2);
    assert.equal(memo.count('hello'), 1);
    assert.equal(memo.count('hello'), 1);
    assert.equal(memo.count('world'), 1);
    assert.equal(memo.count('hello'), 1);
    assert.equal(memo.count('other'), 1);
    assert.equal(memo.count('world'), 1);
    // 'hello world' is over the bound and never kept; 'world' was evicted (least recently used) by 'other'.
    assert.deepEqual(seen, ['hello world', 'hello', 'world', 'other', 'world']);
  });

  it('countPrompt gives the same result with a memo, counting unchanged messages once', () => {
    const tokenizer = getTokenizer('o200k_base');
    const memo = new CountMemo(tokenizer);
    const before = parsePrompt('a.prompt', 'system:\nBe brief.\nuser:\nHello there');
    const after = parsePrompt('a.prompt', 'system:\nBe brief.\nuser:\nHello there, friend');
    assert.deepEqual(countPrompt(before, tokenizer, memo), countPrompt(before, tokenizer));
    assert.deepEqual(countPrompt(after, tokenizer, memo), countPrompt(after, tokenizer));
  });
});

describe('IncrementalCounter.updateTo', () => {
  it('moving to any new text (edit found by prefix/suffix diff) counts as a fresh count does', () => {
    const tokenizer = getTokenizer('o200k_base');
    const piece = fc.constantFrom(
      ' ',
      '  ',
      '\n',
      '\r\n',
      'word',
      "'s",
      '123',
      '4567',
      '你好',
      '🙂',
      '.',
      'x'.repeat(50),
      '\t',
    );
    const text = fc.array(piece, { maxLength: 400 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, (before, after) => {
        const counter = new IncrementalCounter(tokenizer, before, 64);
        return counter.updateTo(after) === tokenizer.count(after) && counter.currentText === after;
      }),
      { seed: 20261130, numRuns: cappedRuns(200) },
    );
  });

  it('finds the edit between long shared starts and ends (compared a block at a time)', () => {
    const tokenizer = getTokenizer('o200k_base');
    const piece = fc.constantFrom(' ', '\n', 'word', '123', '你好', '🙂', '.', 'abcdefghij'.repeat(40));
    const long = fc.array(piece, { minLength: 200, maxLength: 600 }).map((parts) => parts.join(''));
    const middle = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(long, middle, middle, long, (start, was, now, end) => {
        const counter = new IncrementalCounter(tokenizer, start + was + end, 256);
        const after = start + now + end;
        return counter.updateTo(after) === tokenizer.count(after) && counter.currentText === after;
      }),
      { seed: 20261201, numRuns: cappedRuns(60) },
    );
  });
});

describe('applyEdits', () => {
  const applied = (text: string, edits: TextEdit[]) => applyEdits(text, Buffer.byteLength(text), edits);

  it("applies an event's changes in order, each in the coordinates the previous left (VS Code's last-first)", () => {
    const text = 'system:\nBe brief.\nuser:\nHello\n';
    // Two cursors: the later position first, so the earlier offset still holds.
    const edited = 'system:\nAlways Be brief.\nuser:\nHi there\n';
    assert.deepEqual(
      applied(text, [
        { offset: 24, removed: 5, inserted: 'Hi there' },
        { offset: 8, removed: 0, inserted: 'Always ' },
      ]),
      { text: edited, bytes: edited.length },
    );
    assert.deepEqual(applied(text, []), { text, bytes: text.length });
  });

  it('keeps the UTF-8 length exact, surrogate pairs cut and joined by edits included (property)', () => {
    // Text of pieces with astral characters, halves of pairs and multi-byte ones; edits anywhere in it.
    const unit = fc.constantFrom('a', '\n', 'é', '检', '😀', '\uD83D', '\uDE00', '\uDC00');
    const piece = fc.array(unit, { maxLength: 8 }).map((units) => units.join(''));
    const edit = fc.record({ at: fc.nat(), removed: fc.nat({ max: 6 }), inserted: piece });
    fc.assert(
      fc.property(piece, fc.array(edit, { minLength: 1, maxLength: 4 }), (start, raw) => {
        let text = start;
        let bytes = Buffer.byteLength(start);
        for (const { at, removed, inserted } of raw) {
          const offset = at % (text.length + 1);
          const result = applied(text, [{ offset, removed: Math.min(removed, text.length - offset), inserted }]);
          assert.ok(result);
          const expected =
            text.slice(0, offset) + inserted + text.slice(offset + Math.min(removed, text.length - offset));
          assert.equal(result.text, expected);
          bytes = applyEdits(text, bytes, [
            { offset, removed: Math.min(removed, text.length - offset), inserted },
          ])!.bytes;
          text = expected;
          assert.equal(bytes, Buffer.byteLength(text), JSON.stringify(text));
        }
      }),
      fuzzParams(SEED, 1000),
    );
  });

  it('refuses an edit outside the text it applies to', () => {
    assert.equal(applied('abc', [{ offset: 2, removed: 2, inserted: '' }]), undefined);
    assert.equal(applied('abc', [{ offset: 4, removed: 0, inserted: 'x' }]), undefined);
    assert.equal(
      applied('abc', [
        { offset: 0, removed: 3, inserted: '' },
        { offset: 1, removed: 0, inserted: 'x' },
      ]),
      undefined,
    );
  });
});
