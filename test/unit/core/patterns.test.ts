import assert from 'node:assert/strict';
import { CL100K_PATTERN, O200K_PATTERN, splitRegex } from '../../../src/core/tokenize/patterns';

const split = (pattern: string, text: string): string[] => text.match(splitRegex(pattern)) ?? [];

describe('split patterns (reference syntax → JavaScript)', () => {
  it('reads \\s and \\S as Unicode White_Space, inside and outside classes', () => {
    // U+0085 is White_Space (JavaScript's \s misses it); U+FEFF is not (JavaScript's \s takes it).
    assert.deepEqual(split(CL100K_PATTERN, 'a\u0085\u0085b'), ['a', '\u0085', '\u0085b']);
    assert.deepEqual(split(CL100K_PATTERN, ' \uFEFFx'), [' \uFEFF', 'x']);
    assert.deepEqual(split(O200K_PATTERN, 'x \u0085\n'), ['x', ' \u0085\n']);
    assert.equal(splitRegex(String.raw`[^\s]+|\S`).source, String.raw`[^\p{White_Space}]+|\P{White_Space}`);
  });

  it('spells out (?i:…) with Unicode case folds (ſ is s, K is k) and leaves escapes and classes alone', () => {
    assert.deepEqual(split(CL100K_PATTERN, "it'\u017Fx"), ['it', "'\u017F", 'x']);
    assert.deepEqual(split(CL100K_PATTERN, "IT'S"), ['IT', "'S"]);
    assert.deepEqual(split(O200K_PATTERN, "don'\u017F x"), ["don'\u017F", ' x']);
    assert.equal(splitRegex("(?i:'k)|[a-z]|\\d").source, "(?:'[kK\u212A])|[a-z]|\\d");
    assert.throws(() => splitRegex('(?i:a(?i:b))'), /nested/);
  });

  it('every character of any text lands in exactly one piece', () => {
    const text = 'Mixed 123 text,\r\n\t\u00A0\u3000 日本語 👋🏽 <|endoftext|>\uD800 é\u0301';
    for (const pattern of [CL100K_PATTERN, O200K_PATTERN]) assert.equal(split(pattern, text).join(''), text);
  });
});

describe('split pattern translation', () => {
  it('keeps escapes and classes, reads \\s/\\S as White_Space, and spells out (?i:…) up to its closing parenthesis', () => {
    assert.equal(
      splitRegex(String.raw`\d\s[\s\]a]\S`).source,
      String.raw`\d\p{White_Space}[\p{White_Space}\]a]\P{White_Space}`,
    );
    assert.equal(splitRegex('(?i:(a)b)c').source, '(?:([aA])[bB])c');
    assert.equal(splitRegex('(?i:[a]s)(?i:k)').source, '(?:[a][sS\u017F])(?:[kK\u212A])');
    assert.equal(splitRegex('(a)(?i:b)').source, '(a)(?:[bB])');
    assert.equal(splitRegex('(?i:x)y').source, '(?:[xX])y');
    assert.equal(splitRegex('(?i:1_)').source, '(?:1_)');
    assert.equal(splitRegex('a').flags, 'gu');
    assert.throws(() => splitRegex('(?i:(?i:a))'), /nested \(\?i: in split pattern: \(\?i:\(\?i:a\)\)/);
    assert.doesNotThrow(() => splitRegex('(?i:a)(?i:b)'));
  });

  it('gives the tiktoken patterns their published alternatives', () => {
    assert.equal(O200K_PATTERN.split('|').length, 7 + 6 * 2);
    assert.ok(O200K_PATTERN.startsWith(String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}`));
    assert.ok(O200K_PATTERN.includes(String.raw`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`));
  });
});
