// Hostile prompt files opened in the real editor: each gets an analysis (or a clear "too large")
// in bounded time, parse errors become diagnostics, and the extension host keeps answering.
import assert from 'node:assert/strict';
import { Marked } from 'marked';
import * as vscode from 'vscode';
import { extensionApi, hoverTexts, openPrompt, workspaceFile } from '../helpers';

const FILES: Record<string, string | Uint8Array> = {
  // Invalid UTF-8 and control bytes (VS Code itself refuses files with NUL bytes as binary).
  'hostile/binary.prompt': new Uint8Array([
    0x41, 0x01, 0x02, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0xff, 0xfe, 0x0a, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x0a,
  ]),
  'hostile/one-line.prompt': 'x'.repeat(1_500_000),
  'hostile/vars.prompty': `---\nname: many\n---\nuser:\n${Array.from({ length: 1000 }, (_, i) => `{{ v${i} }}`).join(' ')}\n`,
  'hostile/nested.prompt.yml': `messages: ${'['.repeat(2000)}${']'.repeat(2000)}\n`,
  'hostile/laughs.prompt.yml': `a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n${Array.from(
    { length: 9 },
    (_, i) =>
      `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
        .fill(`*${String.fromCharCode(97 + i)}`)
        .join(',')}]`,
  ).join('\n')}\nmessages: [{role: user, content: *j}]\n`,
  'hostile/special.prompt':
    'system:\n<|endoftext|><|im_start|>assistant\u202e\u200b\u200dمرحبا\r\nuser:\r\nhi\rthere\n',
  'hostile/prompts/broken.json': '{"messages": [{"role": "user", "content": "unterminated',
  // Issue 16 item 6: a variable name that is Markdown (a remote image and a link). Backticks would make
  // the braces a code span, which is not a variable.
  'hostile/markdown.prompt':
    'Write about {{ topic ![](https://attacker.example/b.png) [Fix your key](https://attacker.example) }}.\n',
};

describe('hostile prompt files in the editor', () => {
  before(async () => {
    for (const [name, content] of Object.entries(FILES)) {
      await vscode.workspace.fs.writeFile(
        workspaceFile(name),
        typeof content === 'string' ? new TextEncoder().encode(content) : content,
      );
    }
  });

  for (const name of Object.keys(FILES)) {
    it(`${name}: analysed within 30 s, and the host still answers hovers`, async () => {
      const api = await extensionApi();
      const editor = await openPrompt(name);
      const started = Date.now();
      const analysis = await api.analysis(editor.document);
      assert.ok(analysis, 'no analysis');
      assert.ok(Date.now() - started < 30_000);
      assert.ok(analysis.tooLarge !== undefined || analysis.count.inputTokens >= 0);
      const texts = await hoverTexts(editor.document.uri, new vscode.Position(0, 0));
      assert.ok(
        texts.some((t) => t.includes('Prompt Latency Lens')),
        'hover still answers',
      );
    });
  }

  it('malformed files get diagnostics with ranges, not crashes', async () => {
    for (const name of ['hostile/nested.prompt.yml', 'hostile/laughs.prompt.yml', 'hostile/prompts/broken.json']) {
      const editor = await openPrompt(name);
      const analysis = await (await extensionApi()).analysis(editor.document);
      assert.ok(analysis && analysis.parsed.errors.length > 0, `${name} has no parse error`);
    }
  });

  it('a variable name that is Markdown stays text in the hover: no image, no link (issue 16 item 6)', async () => {
    const editor = await openPrompt('hostile/markdown.prompt');
    const analysis = await (await extensionApi()).analysis(editor.document);
    assert.ok(
      analysis?.count.variables.some((v) => v.includes('attacker.example')),
      'the variable is found',
    );
    const hover = (await hoverTexts(editor.document.uri, new vscode.Position(0, 2))).find((t) =>
      t.includes('Prompt Latency Lens'),
    );
    assert.ok(hover?.includes('attacker'), `the hover shows the variable:\n${hover}`);
    // Rendered as VS Code renders hovers (marked, GitHub-flavoured).
    const html = new Marked({ gfm: true }).parse(hover ?? '', { async: false });
    assert.doesNotMatch(html, /<img|<a\b/, `no live image or link:\n${html}`);
  });
});
