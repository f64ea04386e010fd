import assert from 'node:assert/strict';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { PromptCounter } from '../../../src/core/promptCounter';
import { getTokenizer } from '../../../src/core/tokenize/registry';

const fresh = (fileName: string, text: string) => countPrompt(parsePrompt(fileName, text), getTokenizer('o200k_base'));

describe('PromptCounter', () => {
  it('caches per version and follows edits of a plain prompt incrementally', async () => {
    const counter = new PromptCounter();
    const v1 = 'Hello world.\nSecond line here.\n'.repeat(500);
    assert.deepEqual(
      await counter.count({ key: 'doc', fileName: 'a.prompt', text: v1, version: 1 }),
      fresh('a.prompt', v1),
    );
    assert.equal(
      counter.cached('doc', 1),
      await counter.count({ key: 'doc', fileName: 'a.prompt', text: 'ignored: same version', version: 1 }),
    );
    // Two changes in one event, last first, as VS Code sends them.
    const v2 = `${v1.slice(0, 100)}X${v1.slice(100, 5000)}${v1.slice(5003)}`;
    const edits = [
      { offset: 5000, removed: 3, inserted: '' },
      { offset: 100, removed: 0, inserted: 'X' },
    ];
    assert.deepEqual(
      await counter.count({ key: 'doc', fileName: 'a.prompt', text: v2, version: 2, edits }),
      fresh('a.prompt', v2),
    );
    assert.equal(counter.cached('doc', 1), undefined);
  });

  it('recounts from scratch when the edits do not produce the new text', async () => {
    const counter = new PromptCounter();
    await counter.count({ key: 'doc', fileName: 'a.prompt', text: 'one two three', version: 1 });
    const count = await counter.count({
      key: 'doc',
      fileName: 'a.prompt',
      text: 'completely different text',
      version: 2,
      edits: [{ offset: 0, removed: 0, inserted: 'x' }],
    });
    assert.deepEqual(count, fresh('a.prompt', 'completely different text'));
  });

  it('structured prompts: per-message counts, tokenizer from the front-matter model, or forced', async () => {
    const prompty = '---\nmodel: gpt-4\nsample:\n  name: Ada\n---\nsystem:\nBe brief.\nuser:\nHi {{name}}\n';
    const count = await new PromptCounter().count({ key: 'p', fileName: 'a.prompty', text: prompty, version: 1 });
    assert.equal(count.tokenizer, 'cl100k_base');
    assert.deepEqual(count.messages, [
      { role: 'system', tokens: getTokenizer('cl100k_base').count('Be brief.') },
      { role: 'user', tokens: getTokenizer('cl100k_base').count('Hi Ada') },
    ]);
    assert.equal(
      (
        await new PromptCounter({ tokenizer: 'claude' }).count({
          key: 'p',
          fileName: 'a.prompty',
          text: prompty,
          version: 1,
        })
      ).exact,
      false,
    );
  });

  it('parses with the variable patterns, or counts the parse it is given', async () => {
    const counter = new PromptCounter({ variablePatterns: ['<<(\\w+)>>'] });
    assert.deepEqual(
      (await counter.count({ key: 'd', fileName: 'a.prompt', text: 'Hi <<who>>', version: 1 })).variables,
      ['who'],
    );
    const given = parsePrompt('b.prompt', 'Hi [[who]]', { variablePatterns: ['\\[\\[(\\w+)\\]\\]'] });
    assert.deepEqual(
      (
        await new PromptCounter().count({
          key: 'e',
          fileName: 'b.prompt',
          text: 'Hi [[who]]',
          version: 1,
          parsed: given,
        })
      ).variables,
      ['who'],
    );
  });

  it('a new large text is counted the same in slices, for plain and structured prompts, and edits reuse it', async () => {
    const big = 'The quick brown fox jumps over the lazy dog. 1234567 '.repeat(8000);
    const structured = `system:\nBe brief.\nuser:\n${big}`;
    for (const [name, text] of [
      ['a.prompt', big],
      ['b.prompt', structured],
    ] as const) {
      assert.deepEqual(
        await new PromptCounter({ tokenizer: 'o200k_base' }).count({ key: name, fileName: name, text, version: 1 }, 1),
        fresh(name, text),
      );
    }
    const counter = new PromptCounter({ tokenizer: 'o200k_base' });
    await counter.count({ key: 'k', fileName: 'a.prompt', text: big, version: 1 });
    const edited = `${big.slice(0, 100)}X${big.slice(100)}`;
    const after = await counter.count({
      key: 'k',
      fileName: 'a.prompt',
      text: edited,
      version: 2,
      edits: [{ offset: 100, removed: 0, inserted: 'X' }],
    });
    assert.equal(after.contentTokens, fresh('a.prompt', edited).contentTokens);
  });

  // 216 KB of retrieved context, and an 11 KB message (a few chunks: once counted whole through the memo).
  for (const passages of [3000, 150])
    it(`an edit inside a long message (${passages} passages) re-tokenises a few chunks also where a chat template renders it (Llama 3's run)`, async () => {
      const llama3 = getTokenizer('llama3');
      const model = 'llama-3.1-70b';
      const context = 'Retrieved passage: the quick brown fox jumps over the lazy dog. 1234567\n'.repeat(passages);
      const v1 = `system:\nAnswer from the context.\nuser:\n${context}Question: which animal jumps?\n`;
      const counter = new PromptCounter({ tokenizer: 'llama3' });
      const first = await counter.count({ key: 'k', fileName: 'a.prompt', text: v1, version: 1, model });
      assert.deepEqual(first, countPrompt(parsePrompt('a.prompt', v1), llama3, undefined, model));
      assert.equal(first.template?.id, 'llama-3.1', 'not counted through the template: the case under test is missing');
      // What the tokenizer is given while the edit is counted: before, the run `\n\n` + message was counted whole.
      const fed: number[] = [];
      const { count, countChunks } = llama3;
      llama3.count = (text) => (fed.push(text.length), count.call(llama3, text));
      llama3.countChunks = (text, target) => (fed.push(text.length), countChunks.call(llama3, text, target));
      const offset = v1.indexOf('lazy dog', context.length / 2);
      const v2 = `${v1.slice(0, offset)}sleepy ${v1.slice(offset)}`;
      let second;
      try {
        second = await counter.count({ key: 'k', fileName: 'a.prompt', text: v2, version: 2, model });
      } finally {
        Object.assign(llama3, { count, countChunks });
      }
      assert.deepEqual(second, countPrompt(parsePrompt('a.prompt', v2), llama3, undefined, model));
      const chars = fed.reduce((a, b) => a + b, 0);
      assert.ok(
        chars < Math.min(20_000, context.length / 2),
        `the edit re-tokenised ${chars} characters of a ${v2.length}-character prompt`,
      );
      // A new long message has no counter to move: it is counted afresh, the others still moved.
      const v3 = `${v2}assistant:\n${context.replaceAll('fox', 'cat')}user:\nAnd the cat?\n`;
      assert.deepEqual(
        await counter.count({ key: 'k', fileName: 'a.prompt', text: v3, version: 3, model }),
        countPrompt(parsePrompt('a.prompt', v3), llama3, undefined, model),
      );
      const v4 = v3.replace('And the cat?', 'And the dog?');
      assert.deepEqual(
        await counter.count({ key: 'k', fileName: 'a.prompt', text: v4, version: 4, model }),
        countPrompt(parsePrompt('a.prompt', v4), llama3, undefined, model),
      );
    });

  it('yields to the event loop while counting a large new text', async () => {
    const text = 'word '.repeat(400_000);
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    await new PromptCounter({ tokenizer: 'o200k_base' }).count({ key: 'k', fileName: 'a.prompt', text, version: 1 }, 2);
    clearInterval(timer);
    assert.ok(ticks > 0, 'no timer ran during the count: the event loop was blocked throughout');
  });

  it('keeps the newest version when an older count finishes last', async () => {
    const counter = new PromptCounter({ tokenizer: 'o200k_base' });
    const older = counter.count({ key: 'k', fileName: 'a.prompt', text: 'word '.repeat(100_000), version: 1 });
    const newer = await counter.count({ key: 'k', fileName: 'a.prompt', text: 'short text', version: 2 });
    await older;
    assert.equal(counter.cached('k', 2), newer);
    assert.equal(counter.cached('k', 1), undefined);
  });
});
