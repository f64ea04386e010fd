import assert from 'node:assert/strict';
import { PrefixIndex } from '../../../src/core/findings/prefixIndex';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import type { ChatRole } from '../../../src/core/prompt/types';
import { promptFile, wordTokenizer, words } from './helpers';

// The index alone: tokens, file offsets and cut reasons, with no cost model and no wording.
function index(cacheRule = { minTokens: 16, granularity: 16 }, minSharedTokens = 64) {
  return new PrefixIndex({
    tokenizer: wordTokenizer,
    cacheRule,
    settings: { ...DEFAULT_FINDING_SETTINGS.cache, minSharedTokens },
  });
}

function add(i: PrefixIndex, file: string, sections: Array<[ChatRole, string]>) {
  const f = promptFile(sections);
  i.update(file, f.text, f.parsed);
  return f;
}

describe('prefix index (no cost model, no wording)', () => {
  it('groups files by shared static prefix, in tokens, and says where each cut lies and why', () => {
    const i = index();
    const a = add(i, 'a', [
      ['system', words(100, 's')],
      ['user', 'Q: {{question}} please'],
    ]);
    add(i, 'b', [
      ['system', words(100, 's')],
      ['user', 'Q: {{question}} thanks'],
    ]);
    add(i, 'c', [['system', words(100, 't')]]);
    // role token + 100 words + user role token + "Q:"; the variable cuts both prefixes there (the shared
    // prefix ends after "Q:", the static one where the variable starts).
    assert.deepEqual(i.groups(), [
      {
        sharedTokens: 103,
        cacheableTokens: 96,
        members: [
          { file: 'a', promptTokens: 105, sharedTokens: 103, cacheableTokens: 96, prefixEnd: a.text.indexOf(' {{') },
          {
            file: 'b',
            promptTokens: 105,
            sharedTokens: 103,
            cacheableTokens: 96,
            prefixEnd: a.text.indexOf(' {{'),
          },
        ],
      },
    ]);
    assert.equal(i.groupOf('c'), undefined);
    const cut = i.staticPrefix('a')!;
    assert.equal(cut.tokens, 103);
    assert.equal(cut.endOffset, a.text.indexOf('{{'));
    assert.equal(cut.dynamic?.text, '{{question}}');
  });

  it('without a cache rule, nothing is cacheable and no group reaches the threshold', () => {
    const i = new PrefixIndex({
      tokenizer: wordTokenizer,
      cacheRule: undefined,
      settings: DEFAULT_FINDING_SETTINGS.cache,
    });
    add(i, 'a', [['system', words(2000, 's')]]);
    add(i, 'b', [['system', words(2000, 's')]]);
    assert.equal(i.threshold, Infinity);
    assert.deepEqual(i.groups(), []);
    assert.equal(i.staticPrefix('a')?.cacheableTokens, 0);
  });
});
