import assert from 'node:assert/strict';
import { roleFoldingSpans } from '../../../src/core/prompt/folding';

/** The spans as "first line..last line" of the text, 0-based. */
function lines(fileName: string, text: string): string[] {
  const lineOf = (offset: number) => text.slice(0, offset).split('\n').length - 1;
  return roleFoldingSpans(fileName, text).map((s) => `${lineOf(s.start)}..${lineOf(s.end)}`);
}

describe('folding by role section', () => {
  it('a .prompt folds each marked section at its marker, blank lines before the next marker excluded', () => {
    const text =
      'Preamble.\n\nsystem:\nBe brief.\nVery.\n\n# user:\nHi {{ name }}\n\n\nassistant[name="bot"]:\nHello\n';
    assert.deepEqual(lines('a.prompt', text), ['2..4', '6..7', '10..11']);
  });

  it('a .prompty folds only in its body: a "user:" key in the front matter is not a section', () => {
    const text = '---\nname: x\ninputs:\n  user:\n    type: string\n---\nsystem:\nA\nB\nuser:\n{{ user }}\n';
    const spans = lines('a.prompty', text);
    assert.deepEqual(spans, ['6..8', '9..10']);
  });

  it('formats that are not split at role markers fold nothing', () => {
    assert.deepEqual(roleFoldingSpans('a.prompt.md', 'system:\nA\nuser:\nB\n'), []);
    assert.deepEqual(roleFoldingSpans('AGENTS.md', 'system:\nA\nuser:\nB\n'), []);
  });
});
