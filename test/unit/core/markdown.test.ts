import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Marked } from 'marked';
import { MAX_SHOWN, markdownCode, markdownText, notificationText } from '../../../src/core/markdown';

// VS Code renders hovers and tooltips with marked (GitHub-flavoured); so does this test.
const marked = new Marked({ gfm: true });
const render = (markdown: string) => marked.parse(markdown, { async: false });

/** The hostile variable name, a link to a command, an icon, a table break-out and HTML. */
const HOSTILE = [
  '{{ topic` ![](https://attacker.example/b.png) [Fix your key](https://attacker.example) `x }}',
  '[Click to re-enter your API key](command:promptLens.setApiKey)',
  '$(zap) <img src=x onerror=alert(1)> | cell | **bold** _em_ https://attacker.example www.attacker.example',
];

// Characters that build Markdown constructs, mixed into arbitrary text.
const markdownish = fc.string({
  unit: fc.oneof(fc.constantFrom(...'[]()!`*_<>|$:/\\\n.w{}'.split('')), fc.string({ minLength: 1, maxLength: 1 })),
  maxLength: 200,
});

function assertInert(html: string, what: string) {
  assert.doesNotMatch(html, /<(a|img|code|em|strong|table|td|th|script|html|h\d)\b/i, `${what} → ${html}`);
}

describe('Markdown text from prompts, tables and endpoints (issue 16 item 6)', () => {
  it('the hostile examples render as one paragraph of text: no link, image, code, emphasis or HTML', () => {
    for (const text of HOSTILE) assertInert(render(markdownText(text)), text);
  });

  it('any text renders inert, inside a table cell too (property)', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        assertInert(render(markdownText(text)), JSON.stringify(text));
        const table = render(`| a | b |\n|---|---|\n| ${markdownText(text)} | x |`);
        assert.equal(table.match(/<td>/g)?.length, 2, `${JSON.stringify(text)} split the row: ${table}`);
        assert.doesNotMatch(table.replace(/<\/?(table|thead|tbody|tr|th|td)>/g, ''), /<(a|img|code|em|strong)\b/);
      }),
      { numRuns: 500 },
    );
  });

  it('a code span holds any text whole: one <code> (escaped text when it has a |), one table cell (property)', () => {
    fc.assert(
      fc.property(markdownish, (text) => {
        const html = render(`| ${markdownCode(text)} | x |\n|---|---|`);
        if (!text.includes('|') && text.trim() !== '') assert.equal(html.match(/<code>/g)?.length, 1, html);
        assert.equal(html.match(/<th>/g)?.length, 2, `${JSON.stringify(text)}: ${html}`);
        assert.doesNotMatch(html, /<(a|img|em|strong)\b/);
      }),
      { numRuns: 500 },
    );
    assert.equal(markdownCode('openai/gpt-4o'), '`openai/gpt-4o`', 'ordinary identifiers read as before');
    assert.equal(markdownCode('a`b'), '``a`b``');
  });

  it('is one line, clipped, and leaves ordinary text as typed', () => {
    assert.equal(markdownText('line one\r\n  line two'), 'line one line two');
    const long = markdownText('x'.repeat(5 * MAX_SHOWN));
    assert.equal(long.length, MAX_SHOWN);
    assert.ok(long.endsWith('…'));
    assert.equal(
      markdownText('anthropic/claude-3.5-haiku was retired on 2026-02-19: use anthropic/claude-haiku-4.5'),
      'anthropic/claude-3.5-haiku was retired on 2026-02-19: use anthropic/claude-haiku-4.5',
    );
  });

  it('notifications: no [label](link) survives, the text reads the same, one line, clipped', () => {
    const text = notificationText(`front matter: key ${HOSTILE[1]}\nsecond line`);
    assert.doesNotMatch(text, /\]\s*\(/);
    assert.equal(text.replace(/\u200b/g, ''), `front matter: key ${HOSTILE[1]} second line`);
    assert.ok(notificationText('y'.repeat(10_000)).length <= 2 * MAX_SHOWN);
  });
});
