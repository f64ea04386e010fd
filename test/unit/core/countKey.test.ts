import assert from 'node:assert/strict';
import { countPrompt } from '../../../src/core/count';
import { countKey } from '../../../src/core/countKey';
import { chatTemplates } from '../../../src/core/chat/templates';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { TOKENIZER_IDS, TOKENIZERS_WITH_SPECIALS } from '../../../src/core/tokenize/types';

describe('countKey (keys counts without loading a vocabulary)', function () {
  this.timeout(120_000);

  it('TOKENIZERS_WITH_SPECIALS names exactly the loaded tokenizers that carry special tokens', () => {
    const withSpecials = TOKENIZER_IDS.filter((id) => getTokenizer(id).specials !== undefined);
    assert.deepEqual(withSpecials, [...TOKENIZERS_WITH_SPECIALS]);
  });

  it("names the chat template the count rendered, for every tokenizer and every template's models", () => {
    // A user message alone: every template renders it (Mixtral's refuses a system message).
    const parsed = parsePrompt('k.prompt', 'Why was I charged twice?');
    const models = [...chatTemplates().flatMap((t) => t.models), 'gpt-4o', 'claude-sonnet-4', undefined];
    let templated = 0;
    for (const id of TOKENIZER_IDS)
      for (const model of models) {
        const count = countPrompt(parsed, getTokenizer(id), undefined, model);
        assert.equal(count.templateError, undefined);
        const rendered = count.template?.id;
        if (rendered) templated++;
        assert.equal(countKey(id, model), rendered ? `${id}+${rendered}` : id, `${id} with ${model}`);
      }
    assert.ok(templated >= chatTemplates().length, 'every template rendered at least once');
  });
});
