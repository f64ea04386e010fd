import assert from 'node:assert/strict';
import { TokenMemo } from '../../../src/core/findings/encoding';
import {
  buildRequest,
  filledVariablesByMessage,
  lastWhere,
  lineColumn,
  lineIndex,
  RenderMap,
  renderValue,
  requestOrder,
  sampleValue,
} from '../../../src/core/findings/request';
import type { ChatRole, ParsedPrompt, PromptMessage, TemplateVariable } from '../../../src/core/prompt/types';
import { wordTokenizer } from './helpers';

const message = (role: ChatRole, start: number, end: number, text = '', rendered = text): PromptMessage => ({
  role,
  text,
  rendered,
  range: { start, end },
});
const variable = (name: string, start: number, end: number, filled = true): TemplateVariable => ({
  name,
  range: { start, end },
  filled,
});
const prompt = (
  messages: PromptMessage[],
  variables: TemplateVariable[] = [],
  sample: Record<string, unknown> = {},
): ParsedPrompt => ({ format: 'plain', engine: 'generic', messages, variables, settings: { sample }, errors: [] });

describe('the request as the API sees it', () => {
  it('sends system and developer messages first, each group in file order', () => {
    const parsed = prompt([
      message('user', 0, 1),
      message('developer', 1, 2),
      message('assistant', 2, 3),
      message('system', 3, 4),
      message('tool', 4, 5),
    ]);
    assert.deepEqual(requestOrder(parsed), [1, 3, 0, 2, 4]);
  });

  it('puts one role token before each message and records where its content tokens lie', () => {
    const parsed = prompt([message('user', 0, 9, 'two words'), message('system', 10, 20, 'one two three')]);
    const request = buildRequest(parsed, new TokenMemo(wordTokenizer));
    assert.equal(request.tokens.length, 2 + 2 + 3);
    assert.equal(request.tokens[0], -1, 'system role token first');
    assert.equal(request.tokens[4], -3, 'then the user role token');
    assert.deepEqual(
      request.messages.map(({ index, role, tokenStart, tokenEnd }) => ({ index, role, tokenStart, tokenEnd })),
      [
        { index: 1, role: 'system', tokenStart: 1, tokenEnd: 4 },
        { index: 0, role: 'user', tokenStart: 5, tokenEnd: 7 },
      ],
    );
  });

  it("each message's tokens are its stretch of the request's one array, as encoding the message alone gives them", () => {
    const parsed = prompt([message('user', 0, 9, 'two words'), message('system', 10, 20, 'one two three')]);
    const memo = new TokenMemo(wordTokenizer);
    const request = buildRequest(parsed, memo);
    for (const m of request.messages) {
      const alone = memo.encode((parsed.messages[m.index] as PromptMessage).rendered);
      assert.deepEqual([...m.encoded.tokens], [...alone.tokens]);
      assert.deepEqual([...m.encoded.tokens], [...request.tokens.subarray(m.tokenStart, m.tokenEnd)]);
      assert.deepEqual([m.encoded.chunkChars, m.encoded.chunkTokens], [alone.chunkChars, alone.chunkTokens]);
      assert.equal(m.encoded.tokens.buffer, request.tokens.buffer, 'a view of the request, not a copy');
    }
  });

  it('finds each message’s filled variables, sorted, inside its range only', () => {
    const parsed = prompt(
      [message('system', 0, 10), message('user', 10, 20)],
      [
        variable('late', 14, 20),
        variable('unfilled', 2, 4, false),
        variable('b', 5, 7),
        variable('a', 0, 3),
        variable('atStart', 10, 12),
        variable('across', 8, 12),
      ],
    );
    const names = filledVariablesByMessage(parsed).map((vs) => vs.map((v) => v.name));
    assert.deepEqual(names, [
      ['a', 'b'],
      ['atStart', 'late'],
    ]);
  });

  it('lastWhere finds the end of the prefix where a predicate holds', () => {
    const values = [1, 3, 5, 7];
    assert.equal(
      lastWhere(values.length, (i) => values[i]! < 5),
      1,
    );
    assert.equal(
      lastWhere(values.length, () => false),
      -1,
    );
    assert.equal(
      lastWhere(values.length, () => true),
      3,
    );
    assert.equal(
      lastWhere(0, () => true),
      -1,
    );
  });
});

describe('sample values', () => {
  it('reads plain and dotted names, and nothing from a missing sample', () => {
    assert.equal(sampleValue(undefined, 'x'), undefined);
    assert.equal(sampleValue({ 'user.name': 'flat' }, 'user.name'), 'flat');
    assert.equal(sampleValue({ user: { name: 'Ann' } }, 'user.name'), 'Ann');
    assert.equal(sampleValue({ user: 'abc' }, 'user.length'), undefined, 'no walking into a string');
    assert.equal(sampleValue({ user: null }, 'user.name'), undefined);
    assert.equal(sampleValue({ user: {} }, 'user.name.first'), undefined);
  });

  it('renders strings as is and anything else as JSON', () => {
    assert.equal(renderValue(undefined), '');
    assert.equal(renderValue('text'), 'text');
    assert.equal(renderValue(5), '5');
    assert.equal(renderValue({ a: [1] }), '{"a":[1]}');
  });
});

describe('RenderMap', () => {
  // "Hi {{n}}!" with n = "Bob": rendered "Hi Bob!".
  const text = 'Hi {{n}}!';
  const exact = () => {
    const m = message('user', 0, 9, text, 'Hi Bob!');
    const parsed = prompt([m], [variable('n', 3, 8)], { n: 'Bob' });
    return new RenderMap(m, parsed, text);
  };

  it('maps rendered offsets to file offsets exactly, a value’s inside to its variable', () => {
    const map = exact();
    assert.equal(map.exact, true);
    assert.deepEqual(
      [0, 2, 3, 4, 6, 7, 100].map((o) => map.toSource(o)),
      [0, 2, 3, 3, 3, 9, 9],
    );
    assert.deepEqual(
      [0, 3, 4, 8, 9, 50, -5].map((o) => map.toRendered(o)),
      [0, 3, 6, 6, 7, 7, 0],
    );
    assert.equal(map.renderedSlice({ start: 0, end: 8 }), 'Hi Bob');
  });

  it('finds the message’s filled variables itself when not given them', () => {
    const body = 'A {{x}} {{y}}{{z}} end';
    // Message from 0 to the end; one unfilled variable, one outside the message, unsorted.
    const m = message('user', 0, body.length, body, 'A 1 23 end');
    const parsed = prompt(
      [m],
      [
        variable('z', 13, 18),
        variable('x', 2, 7),
        variable('y', 8, 13),
        variable('w', 30, 35),
        variable('u', 0, 1, false),
      ],
      { x: 1, y: '2', z: 3, w: 'no', u: 'no' },
    );
    const map = new RenderMap(m, parsed, body);
    assert.equal(map.exact, true);
    assert.equal(map.toSource(5), 8, 'the end of y’s value');
    assert.equal(map.toSource(6), 13, 'the end of z’s value');
    assert.equal(map.toSource(7), 18 + 1);
    assert.equal(map.toRendered(18), 6);
    // A message starting at y: y is its first variable; x lies before it and is not substituted.
    const later = message('user', 8, body.length, body.slice(8), '23 end');
    const laterMap = new RenderMap(later, parsed, body);
    assert.equal(laterMap.exact, true);
    assert.equal(laterMap.toSource(1), 8);
  });

  it('substitutes a variable that ends the message', () => {
    const m = message('user', 0, 8, 'Hi {{n}}', 'Hi Bob');
    const map = new RenderMap(m, prompt([m], [variable('n', 3, 8)], { n: 'Bob' }), 'Hi {{n}}\n');
    assert.equal(map.exact, true);
    assert.equal(map.toRendered(8), 6);
  });

  it('skips a variable nested in one already substituted', () => {
    const body = '{{outer {{inner}} }}.';
    const m = message('user', 0, body.length, body, 'O.');
    const parsed = prompt([m], [variable('inner', 8, 17), variable('outer', 0, 20)], { outer: 'O', inner: 'I' });
    const map = new RenderMap(m, parsed, body);
    assert.equal(map.exact, true);
    assert.equal(map.toSource(1), 0);
    assert.equal(map.toSource(2), 21);
  });

  it('maps proportionally when the message is not the file slice (re-indented text)', () => {
    const body = 'key: |\n    line one\n    line two';
    // Range 10..30 (20 characters), rendered text of 10 characters.
    const m = message('user', 10, 30, body, 'line\nline2');
    const map = new RenderMap(m, prompt([m]), `${'x'.repeat(10)}${body}`);
    assert.equal(map.exact, false);
    assert.equal(map.toSource(0), 10);
    assert.equal(map.toSource(5), 20);
    assert.equal(map.toSource(10), 30);
    assert.equal(map.toRendered(10), 0);
    assert.equal(map.toRendered(20), 5);
    assert.equal(map.toRendered(25), 8, 'rounded: 7.5 → 8');
    assert.equal(map.toRendered(99), 10);
  });
});

describe('line and column', () => {
  const text = 'ab\ncd\n\nef';
  const expected = [
    [0, 1, 1],
    [2, 1, 3],
    [3, 2, 1],
    [5, 2, 3],
    [6, 3, 1],
    [7, 4, 1],
    [8, 4, 2],
    [9, 4, 3],
  ] as const;

  it('lineColumn counts a newline at the offset as the end of its line', () => {
    for (const [offset, line, column] of expected)
      assert.deepEqual(lineColumn(text, offset), { line, column }, `${offset}`);
  });

  it('lineIndex agrees with lineColumn', () => {
    const at = lineIndex(text);
    for (const [offset, line, column] of expected) assert.deepEqual(at(offset), { line, column }, `${offset}`);
    assert.deepEqual(lineIndex('no newline')(4), { line: 1, column: 5 });
  });
});
