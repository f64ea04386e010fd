import assert from 'node:assert/strict';
import { countText } from '../../../src/core/count';
import { getTokenizer, isTokenizerId, listTokenizers } from '../../../src/core/tokenize/registry';

describe('tokenizers', () => {
  const o200k = getTokenizer('o200k_base');
  const cl100k = getTokenizer('cl100k_base');

  it('matches published o200k_base and cl100k_base encodings', () => {
    // Vectors from OpenAI's tiktoken test suite (tests/test_encoding.py).
    assert.deepEqual(cl100k.encode('hello world'), [15339, 1917]);
    assert.deepEqual(o200k.encode('hello world'), [24912, 2375]);
    assert.deepEqual(cl100k.encode('rer'), [38149]);
    assert.deepEqual(cl100k.encode("'rer"), [2351, 81]);
    assert.deepEqual(cl100k.encode('today\n '), [31213, 198, 220]);
  });

  it('counts special-token strings as plain text instead of throwing', () => {
    const text = 'before <|endoftext|> and <|im_start|>system';
    const tokens = o200k.encode(text);
    assert.ok(!tokens.includes(199999), 'encoded <|endoftext|> as the special token');
    assert.ok(tokens.length > 6);
    assert.equal(countText(text, o200k).contentTokens, tokens.length);
  });

  it('counts the exact text: CRLF and trailing whitespace change the count', () => {
    assert.notEqual(o200k.count('a\r\nb\r\n'), o200k.count('a\nb'));
    assert.equal(o200k.count(''), 0);
  });

  it('handles CJK and emoji', () => {
    assert.ok(o200k.count('你好，世界 👋🏽') > 3);
  });

  it('lists its tokenizers and rejects unknown ids', () => {
    assert.deepEqual(listTokenizers().map((t) => t.id), ['o200k_base', 'cl100k_base']);
    assert.equal(isTokenizerId('nope'), false);
  });
});
