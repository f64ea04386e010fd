import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { renderChat, type TemplateMessage } from '../../../src/core/chat/render';
import { chatTemplateForModel, type ChatTemplate } from '../../../src/core/chat/templates';

/** The spans by definition: each message's first occurrence after the one before, as written, else trimmed. */
function definedSpans(text: string, messages: readonly TemplateMessage[]) {
  let from = 0;
  return messages.map((m) => {
    for (const candidate of [m.content, m.content.trim()]) {
      if (candidate.length === 0) continue;
      const at = text.indexOf(candidate, from);
      if (at >= 0) {
        from = at + candidate.length;
        return { start: at, end: from };
      }
    }
    return undefined;
  });
}

function template(id: string, body: string): ChatTemplate {
  return {
    id,
    name: id,
    models: [id],
    tokenizer: 'cl100k_base',
    source: 'test',
    retrieved: '2026-12-03',
    bos_token: '',
    eos_token: '',
    template: body,
  };
}

// Markup made of the messages' own letters and spaces, so texts occur in it, before and after where they were put.
const templates = [
  template('test-as-written', '{% for m in messages %}<{{ m.role }}> a {{ m.content }} b\n{% endfor %}'),
  template('test-trims', '{% for m in messages %}[{{ m.role }}] a{{ m.content | trim }}a b {% endfor %}'),
  template(
    'test-trims-users',
    "{% for m in messages %}{% if m.role == 'user' %}{{ m.content | trim }}{% else %}{{ m.content }}{% endif %} a {% endfor %}",
  ),
  chatTemplateForModel('meta-llama/Llama-3.1-8B-Instruct')!,
];

const content = fc
  .array(fc.constantFrom('a', 'b', ' ', '\n', 'a b', 'user', '<user>'), { maxLength: 6 })
  .map((parts) => parts.join(''));
const chat = fc
  .record({ system: fc.option(content, { nil: undefined }), turns: fc.array(content, { minLength: 1, maxLength: 4 }) })
  .map(({ system, turns }): TemplateMessage[] => [
    ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
    ...turns.map((c, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content: c })),
  ]);

describe('renderChat: where each message landed', () => {
  for (const t of templates) {
    it(`${t.id}: the spans are each message's first occurrence, as written, else trimmed (property)`, () => {
      fc.assert(
        fc.property(chat, (messages) => {
          const rendered = renderChat(t, messages);
          assert.deepEqual(rendered.spans, definedSpans(rendered.text, messages));
        }),
        { numRuns: 2000 },
      );
    });
  }

  // Long messages (searched from their first characters) with those characters written before them once or twice.
  const echoes = template(
    'test-echoes-heads',
    '{% for m in messages %}{% for i in range(loop.index) %}{{ m.content[:80] }} {% endfor %}{{ m.content | trim if loop.first else m.content }}{% endfor %}',
  );
  const long = fc
    .tuple(content, fc.integer({ min: 1, max: 3 }), fc.constantFrom('', ' ', '\n '))
    .map(([c, n, lead]) => `${lead}${`${c}x`.repeat(Math.ceil(5000 / (c.length + 1)) * n)}${lead}`);
  it(`${echoes.id}: long messages, their first characters echoed before them (property)`, () => {
    fc.assert(
      fc.property(fc.array(long, { minLength: 1, maxLength: 3 }), (contents) => {
        const messages = contents.map((c, i): TemplateMessage => ({
          role: i % 2 === 0 ? 'user' : 'assistant',
          content: c,
        }));
        const rendered = renderChat(echoes, messages);
        assert.deepEqual(rendered.spans, definedSpans(rendered.text, messages));
      }),
      { numRuns: 300 },
    );
  });

  it('places a long message the template trimmed (no as-written occurrence) and one it wrote as is', () => {
    const long = `\n\n${'The passage. '.repeat(20_000)}\n`;
    for (const t of templates.slice(0, 2)) {
      const messages: TemplateMessage[] = [{ role: 'user', content: long }];
      const rendered = renderChat(t, messages);
      const [span] = rendered.spans;
      assert.ok(span);
      assert.equal(rendered.text.slice(span.start, span.end), t.id === 'test-trims' ? long.trim() : long);
    }
  });
});
