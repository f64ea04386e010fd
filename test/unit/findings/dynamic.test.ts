import assert from 'node:assert/strict';
import {
  dynamicSpans,
  firstDynamic,
  literalHints,
  withRetrievedContext,
  type DynamicSpan,
} from '../../../src/core/findings/dynamic';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { parsePrompt } from '../../../src/core/prompt/parse';
import type { ChatRole, ParsedPrompt } from '../../../src/core/prompt/types';

const rag = DEFAULT_FINDING_SETTINGS.rag;
const parse = (text: string): ParsedPrompt => parsePrompt('x.prompt', text);
const shown = (spans: readonly DynamicSpan[]) => spans.map((s) => [s.kind, s.text]);
const span = (kind: DynamicSpan['kind'], start: number, end: number): DynamicSpan => ({
  kind,
  range: { start, end },
  text: '',
});

describe('dynamic spans', () => {
  it('lists variables (not stable ones), slots (case-insensitive) and declared patterns, adjacent ones apart', () => {
    const text = 'system:\nHi {{a}}{{Context}} {{fixed}} order ORD-12, ORD-7 done\nuser:\n{{q}} ORD-3';
    const parsed = parse(text);
    const fixed = parsed.variables.find((v) => v.name === 'fixed');
    assert.ok(fixed);
    fixed.stable = true;
    const spans = dynamicSpans(parsed, text, { rag, declared: [/ORD-\d+/g] });
    assert.deepEqual(shown(spans), [
      ['variable', '{{a}}'],
      ['retrieved context', '{{Context}}'],
      ['declared', 'ORD-12'],
      ['declared', 'ORD-7'],
      ['variable', '{{q}}'],
      ['declared', 'ORD-3'],
    ]);
    assert.deepEqual(spans[1]?.range, { start: text.indexOf('{{Context}}'), end: text.indexOf(' {{fixed}}') });
    // Without retrieval settings a slot-like name is a plain variable.
    assert.equal(dynamicSpans(parsed, text)[1]?.kind, 'variable');
  });

  it('skips empty matches of a declared pattern and stops at the message’s end', () => {
    const text = 'system:\nrun 12 then 345 tail here\nuser:\nmore 6 words';
    const parsed = parse(text);
    assert.deepEqual(shown(dynamicSpans(parsed, text, { declared: [/\d*/g] })), [
      ['declared', '12'],
      ['declared', '345'],
      ['declared', '6'],
    ]);
    assert.deepEqual(shown(dynamicSpans(parsed, text, { declared: [/tail[\s\S]*/g] })), [['declared', 'tail here']]);
  });

  it('a user rag.pattern marks retrieved context; tags and headings alone do not', () => {
    const text = 'system:\n<documents>d</documents>\n## Context\nx BEGIN retrieved END y\nuser:\nq';
    const parsed = parse(text);
    const spans = dynamicSpans(parsed, text, { rag: { ...rag, pattern: 'BEGIN[\\s\\S]*?END' } });
    assert.deepEqual(shown(spans), [['retrieved context', '/BEGIN[\\s\\S]*?END/']]);
    assert.deepEqual(spans[0]?.range, {
      start: text.indexOf('BEGIN'),
      end: text.indexOf(' y'),
    });
    assert.deepEqual(dynamicSpans(parsed, text, { rag }), []);
  });

  it('a stable variable stays static even where its name looks like a retrieval slot', () => {
    const text = 'system:\nSee {{docs}} here\nuser:\nq';
    const parsed = parse(text);
    for (const v of parsed.variables) Object.assign(v, { stable: true, filled: true });
    parsed.settings = { ...parsed.settings, sample: { docs: 'retrieved' } };
    assert.deepEqual(dynamicSpans(parsed, text, { rag: { ...rag, pattern: 'NEVER' } }), []);
  });

  it('control blocks: Jinja and Mustache sections, nesting, whitespace control, unmatched tags', () => {
    const parts = [
      '{% if x %}B{% else %}C{% endif %}',
      '{{#s}}E{{/s}}',
      '{{ #t }}G{{ /t }}',
      '{{# u.v }}I{{/ u.v}}',
      '{%- for i in y -%}K{%- endfor -%}',
      '{%if z%}M{%endif%}',
      '{{#pa}}',
      '{{/pb}}',
      '{% if a %}{% if b %}Q{% endif %}R{% endif %}',
      '{% endif %}',
      '{% set k = 1 %}',
    ];
    const text = `system:\n${parts.join(' . ')}\nuser:\nV`;
    const spans = dynamicSpans(parse(text), text);
    assert.deepEqual(shown(spans), [
      ['block', parts[0]],
      ['block', parts[1]],
      ['block', parts[2]],
      ['block', parts[3]],
      ['block', parts[4]],
      ['block', parts[5]],
      ['variable', parts[6]],
      ['variable', parts[7]],
      ['block', parts[8]],
      ['variable', parts[9]],
      ['variable', parts[10]],
    ]);
  });

  it('merges overlapping spans, extending the first to the end of the second', () => {
    const text = 'system:\nhead {{a}} end\nuser:\nq';
    const spans = dynamicSpans(parse(text), text, { declared: [/head \{\{/g] });
    assert.deepEqual(shown(spans), [['declared', 'head {{a}}']]);
    assert.deepEqual(spans[0]?.range, { start: text.indexOf('head'), end: text.indexOf(' end') });
  });
});

describe('literal hints', () => {
  it('are look-alikes outside every dynamic span, the ones touching a span included', () => {
    const text =
      'system:\nOn 2025-01-02 {{a}}2025-02-03 and 2025-03-04{{b}} Due: 2025-04-05 then 2025-05-06, 2025-06-07\nuser:\nq';
    const parsed = parse(text);
    const dynamic = dynamicSpans(parsed, text, { declared: [/Due: \S+/g] });
    const hints = literalHints(parsed, text, dynamic);
    assert.deepEqual(
      hints.map((h) => h.text),
      ['2025-01-02', '2025-02-03', '2025-03-04', '2025-05-06', '2025-06-07'],
    );
    assert.ok(hints.every((h) => h.hint === true && h.kind === 'date'));
  });

  it('with retrieval settings, written-out regions are hints and slots are not', () => {
    const text = 'system:\n<documents>text</documents> {{context}}\nuser:\nq';
    const parsed = parse(text);
    for (const v of parsed.variables) v.filled = true;
    parsed.settings = { ...parsed.settings, sample: { context: 'retrieved' } };
    assert.deepEqual(shown(literalHints(parsed, text, [], rag)), [['literal retrieved context', '<documents>']]);
    assert.deepEqual(shown(literalHints(parsed, text, [])), []);
  });
});

describe('first dynamic span, in request order', () => {
  // Messages by hand: [role, start, end].
  const messages = (...ms: Array<[ChatRole, number, number]>): ParsedPrompt => ({
    format: 'plain',
    engine: 'generic',
    messages: ms.map(([role, start, end]) => ({ role, text: '', rendered: '', range: { start, end } })),
    variables: [],
    settings: {},
    errors: [],
  });

  it('looks at system messages first, wherever they are in the file', () => {
    // system 0–10 static; user 10–20 with a span at 12; system 20–30 with a span at 25.
    const parsed = messages(['system', 0, 10], ['user', 10, 20], ['system', 20, 30]);
    const spans = [span('variable', 12, 14), span('variable', 25, 27)];
    assert.equal(firstDynamic(parsed, spans)?.range.start, 25);
    assert.equal(firstDynamic(parsed, [spans[0]!])?.range.start, 12);
    assert.equal(firstDynamic(parsed, []), undefined);
  });

  it('counts a span at a message’s start, not one at its end; an empty message holds a span at its start', () => {
    assert.equal(firstDynamic(messages(['system', 0, 5], ['user', 5, 9]), [span('block', 5, 6)])?.range.start, 5);
    assert.equal(firstDynamic(messages(['system', 0, 5], ['user', 6, 9]), [span('block', 5, 6)]), undefined);
    assert.equal(firstDynamic(messages(['system', 5, 5]), [span('block', 5, 6)])?.range.start, 5);
  });
});

describe('with retrieved context', () => {
  it('adds retrieval regions to the spans, or returns the spans unchanged when there are none', () => {
    const text = 'system:\nStatic. {{a}}\nuser:\nq';
    const parsed = parse(text);
    const spans = dynamicSpans(parsed, text);
    assert.deepEqual(withRetrievedContext(parsed, text, spans, rag), spans);
    const withDocs = 'system:\nStatic. <documents>d</documents> {{a}}\nuser:\nq';
    const parsedDocs = parse(withDocs);
    assert.deepEqual(shown(withRetrievedContext(parsedDocs, withDocs, dynamicSpans(parsedDocs, withDocs), rag)), [
      ['retrieved context', '<documents>'],
      ['variable', '{{a}}'],
    ]);
  });
});
