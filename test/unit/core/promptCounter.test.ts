import assert from 'node:assert/strict';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { PromptCounter } from '../../../src/core/promptCounter';
import { getTokenizer } from '../../../src/core/tokenize/registry';

const fresh = (fileName: string, text: string) => countPrompt(parsePrompt(fileName, text), getTokenizer('o200k_base'));

describe('PromptCounter', () => {
  it('caches per version and follows edits of a plain prompt incrementally', () => {
    const counter = new PromptCounter();
    const v1 = 'Hello world.\nSecond line here.\n'.repeat(500);
    assert.deepEqual(counter.count('doc', 'a.prompt', v1, 1), fresh('a.prompt', v1));
    assert.equal(counter.cached('doc', 1), counter.count('doc', 'a.prompt', 'ignored: same version', 1));
    // Two changes in one event, last first, as VS Code sends them.
    const v2 = `${v1.slice(0, 100)}X${v1.slice(100, 5000)}${v1.slice(5003)}`;
    const count = counter.count('doc', 'a.prompt', v2, 2, [
      { offset: 5000, removed: 3, inserted: '' },
      { offset: 100, removed: 0, inserted: 'X' },
    ]);
    assert.deepEqual(count, fresh('a.prompt', v2));
    assert.equal(counter.cached('doc', 1), undefined);
  });

  it('recounts from scratch when the edits do not produce the new text', () => {
    const counter = new PromptCounter();
    counter.count('doc', 'a.prompt', 'one two three', 1);
    const count = counter.count('doc', 'a.prompt', 'completely different text', 2, [{ offset: 0, removed: 0, inserted: 'x' }]);
    assert.deepEqual(count, fresh('a.prompt', 'completely different text'));
  });

  it('structured prompts: per-message counts, tokenizer from the front-matter model, or forced', () => {
    const prompty = '---\nmodel: gpt-4\nsample:\n  name: Ada\n---\nsystem:\nBe brief.\nuser:\nHi {{name}}\n';
    const count = new PromptCounter().count('p', 'a.prompty', prompty, 1);
    assert.equal(count.tokenizer, 'cl100k_base');
    assert.deepEqual(count.messages, [
      { role: 'system', tokens: getTokenizer('cl100k_base').count('Be brief.') },
      { role: 'user', tokens: getTokenizer('cl100k_base').count('Hi Ada') },
    ]);
    assert.equal(new PromptCounter({ tokenizer: 'claude' }).count('p', 'a.prompty', prompty, 1).exact, false);
  });

  it('passes variable patterns on and keeps the parse for diagnostics', () => {
    const counter = new PromptCounter({ variablePatterns: ['<<(\\w+)>>'] });
    assert.deepEqual(counter.count('d', 'a.prompt', 'Hi <<who>>', 1).variables, ['who']);
    assert.equal(counter.parsed('d')?.variables[0]?.name, 'who');
    counter.forget('d');
    assert.equal(counter.parsed('d'), undefined);
  });
});

describe('PromptCounter.countAsync', () => {
  it('gives the same counts as count(), for plain and structured prompts, and reuses edits', async () => {
    const big = 'The quick brown fox jumps over the lazy dog. 1234567 '.repeat(8000);
    const structured = `system:\nBe brief.\nuser:\n${big}`;
    for (const [name, text] of [['a.prompt', big], ['b.prompt', structured]] as const) {
      const expected = new PromptCounter({ tokenizer: 'o200k_base' }).count(name, name, text, 1);
      const asyncCount = await new PromptCounter({ tokenizer: 'o200k_base' }).countAsync(name, name, text, 1);
      assert.deepEqual(asyncCount, expected);
    }
    const counter = new PromptCounter({ tokenizer: 'o200k_base' });
    await counter.countAsync('k', 'a.prompt', big, 1);
    const edited = `${big.slice(0, 100)}X${big.slice(100)}`;
    const after = await counter.countAsync('k', 'a.prompt', edited, 2, [{ offset: 100, removed: 0, inserted: 'X' }]);
    assert.equal(after.contentTokens, new PromptCounter({ tokenizer: 'o200k_base' }).count('k', 'a.prompt', edited, 1).contentTokens);
  });

  it('yields to the event loop while counting a large new text', async () => {
    const text = 'word '.repeat(400_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await new PromptCounter({ tokenizer: 'o200k_base' }).countAsync('k', 'a.prompt', text, 1, [], 2);
    clearInterval(timer);
    assert.ok(ticks > 0, 'no timer ran during the count: the event loop was blocked throughout');
  });

  it('keeps the newest version when an older count finishes last', async () => {
    const counter = new PromptCounter({ tokenizer: 'o200k_base' });
    const older = counter.countAsync('k', 'a.prompt', 'word '.repeat(100_000), 1);
    counter.count('k', 'a.prompt', 'short text', 2);
    await older;
    assert.equal(counter.cached('k', 2)?.contentTokens, counter.count('k', 'a.prompt', 'short text', 2).contentTokens);
    assert.equal(counter.cached('k', 1), undefined);
  });
});
