import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar, type IRawGrammar } from 'vscode-textmate';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';

/**
 * The grammar as VS Code runs it: vscode-textmate with Oniguruma, the Markdown and YAML grammars VS
 * Code ships (from tm-grammars), VS Code's `text.html.markdown.prompt` (the built-in "prompt"
 * language, which is plain Markdown) and our injection on top; our own grammars of plain `.prompt` files and
 * of `.prompty` (YAML front matter and the plain grammar's body).
 */
const root = join(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { grammars: Array<{ scopeName: string; path: string; language?: string; injectTo?: string[] }> };
};
const ours = new Map(manifest.contributes.grammars.map((g) => [g.scopeName, join(root, g.path)]));
const shipped: Record<string, string> = {
  'text.html.markdown': require.resolve('tm-grammars/grammars/markdown.json'),
  'source.yaml': require.resolve('tm-grammars/grammars/yaml.json'),
};
/** VS Code's extensions/prompt-basics grammar for the built-in "prompt" language. */
const BUILTIN_PROMPT = { scopeName: 'text.html.markdown.prompt', patterns: [{ include: 'text.html.markdown' }] };

async function registry(onLoad?: (scopeName: string) => void): Promise<Registry> {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  return new Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: (scopeName): Promise<IRawGrammar | null> => {
      onLoad?.(scopeName);
      if (scopeName === BUILTIN_PROMPT.scopeName)
        return Promise.resolve(parseRawGrammar(JSON.stringify(BUILTIN_PROMPT), 'prompt.json'));
      const path = ours.get(scopeName) ?? shipped[scopeName];
      return Promise.resolve(path ? parseRawGrammar(readFileSync(path, 'utf8'), path) : null);
    },
    getInjections: (scopeName) =>
      manifest.contributes.grammars.filter((g) => g.injectTo?.includes(scopeName)).map((g) => g.scopeName),
  });
}

/** Scopes of each character of `text`, as VS Code would colour it. */
function scopesByOffset(grammar: IGrammar, text: string): string[][] {
  let state = INITIAL;
  const scopes: string[][] = [];
  for (const line of text.split('\n')) {
    const result = grammar.tokenizeLine(line, state);
    for (const t of result.tokens)
      for (let i = t.startIndex; i < Math.min(t.endIndex, line.length); i++) scopes.push(t.scopes);
    scopes.push([]); // the newline
    state = result.ruleStack;
  }
  return scopes;
}

/** The scopes at the first character of the `nth` occurrence of `needle` in `text`. */
function scopesOf(grammar: IGrammar, text: string, needle: string, nth = 0): string[] {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.ok(at >= 0, `"${needle}" #${nth} is not in the sample`);
  }
  return scopesByOffset(grammar, text)[at]!;
}

const has = (scopes: string[], scope: string) => scopes.some((s) => s === scope || s.startsWith(`${scope}.`));

const SAMPLE = [
  '---',
  'model: gpt-4o',
  'user: not a role',
  '---',
  'system:',
  'You answer from the documents. <!-- prompt-lens-disable rag-budget cache-breaker -->',
  '{# prompt-lens-dynamic \\d{4}-\\d{2}-\\d{2} #}',
  '<documents>',
  '{% for doc in documents %}<document id="{{ doc.id }}">{{ doc.text | trim }}</document>{% endfor %}',
  '</documents>',
  '',
  '# user:',
  'Question: {{ question }} and `{{ literal }}`',
  '',
  'assistant[name=bot]:',
  'Hello ${input:topic:a topic}',
].join('\n');

describe('TextMate grammar: .prompt (our prompt-lens-plain), .prompt.md (VS Code "prompt" language) and .prompty', () => {
  let plain: IGrammar;
  let prompt: IGrammar;
  let prompty: IGrammar;
  before(async () => {
    const r = await registry();
    plain = (await r.loadGrammar('text.prompt-lens.plain'))!;
    prompt = (await r.loadGrammar('text.html.markdown.prompt'))!;
    prompty = (await r.loadGrammar('text.prompt-lens.prompty'))!;
    assert.ok(plain && prompt && prompty);
  });

  for (const [name, grammar] of [
    ['plain', () => plain],
    ['prompt', () => prompt],
    ['prompty', () => prompty],
  ] as const) {
    const at = (needle: string, nth = 0) => scopesOf(grammar(), SAMPLE, needle, nth);

    it(`${name}: role markers, template variables and blocks, retrieved-context tags, pragmas`, () => {
      const expected: Array<[string, number, string]> = [
        ['system', 0, 'entity.name.section.role.prompt-lens'],
        ['user:', 1, 'entity.name.section.role.prompt-lens'], // `# user:`
        ['assistant', 0, 'entity.name.section.role.prompt-lens'],
        ['[name=bot]', 0, 'variable.parameter.role.prompt-lens'],
        ['prompt-lens-disable', 0, 'keyword.other.pragma.prompt-lens'],
        ['cache-breaker', 0, 'constant.other.finding-code.prompt-lens'],
        ['prompt-lens-dynamic', 0, 'keyword.other.pragma.prompt-lens'],
        ['\\d{4}', 0, 'string.regexp.prompt-lens'],
        ['documents>', 0, 'entity.name.tag.retrieved-context.prompt-lens'],
        ['document id', 0, 'entity.name.tag.retrieved-context.prompt-lens'],
        ['/documents>', 0, 'punctuation.definition.tag.begin.prompt-lens'],
        ['for doc', 0, 'keyword.control.template.prompt-lens'],
        ['doc.id', 0, 'variable.other.template.prompt-lens'],
        ['doc.text', 0, 'variable.other.template.prompt-lens'],
        ['trim', 0, 'support.function.filter.prompt-lens'],
        ['{{ question', 0, 'punctuation.definition.template.begin.prompt-lens'],
        ['question }}', 0, 'variable.other.template.prompt-lens'],
      ];
      for (const [needle, nth, scope] of expected) {
        const scopes = at(needle, nth);
        assert.ok(has(scopes, scope), `"${needle}": ${scopes.join(' ')} lacks ${scope}`);
      }
      assert.ok(!has(at('You answer'), 'markup.heading.role.prompt-lens'), 'body text is not a role');
    });

    it(`${name}: a code span is literal (no variable inside it)`, () => {
      const literal = at('literal');
      assert.ok(has(literal, 'markup.inline.raw'), literal.join(' '));
      assert.ok(!has(literal, 'variable.other.template.prompt-lens'), literal.join(' '));
    });
  }

  for (const [name, grammar] of [
    ['prompt', () => prompt],
    ['prompty', () => prompty],
  ] as const) {
    const at = (needle: string) => scopesOf(grammar(), SAMPLE, needle);

    it(`${name}: the front matter is YAML, and a "user:" key there is not a role`, () => {
      const model = at('model');
      assert.ok(has(model, 'meta.embedded.block.frontmatter') && has(model, 'entity.name.tag.yaml'), model.join(' '));
      const userKey = at('user: not');
      assert.ok(has(userKey, 'entity.name.tag.yaml'), userKey.join(' '));
      assert.ok(!has(userKey, 'entity.name.section.role.prompt-lens'), userKey.join(' '));
    });
  }

  it('prompt: VS Code prompt-file references are variables', () => {
    const scopes = scopesOf(prompt, SAMPLE, 'input:topic');
    assert.ok(has(scopes, 'variable.other.template.prompt-lens'), scopes.join(' '));
  });

  describe('plain: no Markdown grammar, no embedded languages', () => {
    /** A plain prompt's Markdown: headings, fences (of any info string) and code spans, as the parser reads them. */
    const PLAIN = [
      '# Answer for {{ audience }}',
      '```python',
      'user:',
      'print("{{ not_a_variable }}")',
      '````',
      '~~~',
      '{{ also_literal }}',
      '~~~',
      'Hello ${input:topic} and {{ name }}',
    ].join('\n');
    const at = (needle: string) => scopesOf(plain, PLAIN, needle);

    it('loads no other grammar than the injection it takes its rules from', async () => {
      const loaded: string[] = [];
      const r = await registry((scopeName) => loaded.push(scopeName));
      await r.loadGrammar('text.prompt-lens.plain');
      assert.deepEqual(loaded.sort(), ['prompt-lens.injection', 'text.prompt-lens.plain']);
    });

    it('headings are headings, with template variables inside them', () => {
      assert.ok(has(at('Answer'), 'markup.heading.markdown'), at('Answer').join(' '));
      assert.ok(has(at('audience'), 'variable.other.template.prompt-lens'), at('audience').join(' '));
    });

    it('a fence is literal to a closing fence of its character, at least as long; no language is embedded', () => {
      for (const needle of ['user:', 'print', 'not_a_variable', 'also_literal']) {
        const scopes = at(needle);
        assert.deepEqual(scopes.slice(1), ['markup.fenced_code.block.markdown'], `"${needle}": ${scopes.join(' ')}`);
      }
      assert.ok(has(at('python'), 'fenced_code.block.language'), at('python').join(' '));
      assert.ok(has(at('name }}'), 'variable.other.template.prompt-lens'), 'the fences are closed');
    });

    it('${input:…} is text: a plain prompt substitutes {{ }} and {% %} only', () => {
      assert.ok(!has(at('input:topic'), 'variable.other.template.prompt-lens'), at('input:topic').join(' '));
    });
  });

  describe('prompty: YAML front matter and the plain body, no Markdown grammar', () => {
    /** Prompty's other delimiter, a block scalar up to the closing line, a fence, and a later `---` (text). */
    const PROMPTY = [
      '+++',
      'description: |',
      '  user:',
      '  {{ not_a_variable }}',
      '+++',
      '{% if tone %}Write in a {{ tone }} tone.{% endif %}',
      '```yaml',
      'user:',
      'key: {{ fenced }}',
      '```',
      '---',
      'user:',
      'Hello ${input:topic} and {{ name }}',
    ].join('\n');
    const at = (needle: string, nth = 0) => scopesOf(prompty, PROMPTY, needle, nth);

    it('loads the plain grammar, the injection it takes its rules from and YAML (with its injection); not Markdown', async () => {
      const loaded: string[] = [];
      const r = await registry((scopeName) => loaded.push(scopeName));
      await r.loadGrammar('text.prompt-lens.prompty');
      assert.deepEqual(loaded.sort(), [
        'prompt-lens.injection',
        'prompt-lens.yaml-injection',
        'source.yaml',
        'text.prompt-lens.plain',
        'text.prompt-lens.prompty',
      ]);
    });

    it('+++ front matter is YAML to its closing line, a block scalar included; the body follows', () => {
      const key = at('description');
      assert.ok(has(key, 'meta.embedded.block.frontmatter') && has(key, 'entity.name.tag.yaml'), key.join(' '));
      for (const needle of ['user:', 'not_a_variable']) {
        const scopes = at(needle);
        assert.ok(has(scopes, 'meta.embedded.block.frontmatter'), `"${needle}": ${scopes.join(' ')}`);
        assert.ok(!has(scopes, 'entity.name.section.role.prompt-lens'), `"${needle}": ${scopes.join(' ')}`);
        assert.ok(!has(scopes, 'variable.other.template.prompt-lens'), `"${needle}": ${scopes.join(' ')}`);
      }
      assert.ok(has(at('+++', 1), 'punctuation.definition.end.frontmatter'), at('+++', 1).join(' '));
      assert.ok(!has(at('if tone'), 'meta.embedded.block.frontmatter'), at('if tone').join(' '));
    });

    it('Jinja2 blocks and variables; a fence is literal and embeds no language', () => {
      assert.ok(has(at('if tone'), 'keyword.control.template.prompt-lens'), at('if tone').join(' '));
      assert.ok(has(at('tone }}'), 'variable.other.template.prompt-lens'), at('tone }}').join(' '));
      for (const needle of ['key:', 'fenced']) {
        const scopes = at(needle);
        assert.deepEqual(scopes.slice(1), ['markup.fenced_code.block.markdown'], `"${needle}": ${scopes.join(' ')}`);
      }
      assert.ok(has(at('user:', 2), 'entity.name.section.role.prompt-lens'), 'the fence is closed');
    });

    it('a --- line after the top is text; ${input:…} is text (Jinja2 does not substitute it)', () => {
      assert.deepEqual(at('---'), ['text.prompt-lens.prompty']);
      assert.ok(!has(at('input:topic'), 'variable.other.template.prompt-lens'), at('input:topic').join(' '));
      assert.ok(has(at('name }}'), 'variable.other.template.prompt-lens'), at('name }}').join(' '));
    });
  });

  it("the retrieved-context tags are promptLens.rag.tags' default", () => {
    const grammar = JSON.parse(readFileSync(ours.get('prompt-lens.injection')!, 'utf8')) as {
      repository: { 'retrieved-context-tag': { begin: string } };
    };
    const alternation = /\((\w+(?:\|\w+)*)\)/.exec(
      grammar.repository['retrieved-context-tag'].begin.replace('(?i)', ''),
    );
    const defaults = DEFAULT_FINDING_SETTINGS.rag.tags;
    assert.deepEqual(alternation?.[1]?.split('|'), [...defaults]);
  });
});

/** A GitHub Models .prompt.yml, with a workflow expression and a Helm value beside the prompt's variables. */
const PROMPT_YML = [
  'name: Summarise an issue',
  'model: openai/gpt-4o',
  'messages:',
  '  - role: system',
  '    content: You summarise issues for {{audience}}.',
  '  - role: user',
  '    content: |',
  '      Title: {{ issue.title }}',
  '      Body: {{body}}',
  '# not a {{comment_variable}}',
  'ref: ${{ github.ref }}',
  'image: "{{ .Values.image }}"',
].join('\n');

describe("TextMate grammar: .prompt.yml (VS Code's YAML grammar with our injection)", () => {
  let yaml: IGrammar;
  before(async () => {
    yaml = (await (await registry()).loadGrammar('source.yaml'))!;
    assert.ok(yaml);
  });
  const at = (needle: string) => scopesOf(yaml, PROMPT_YML, needle);

  it('template variables inside YAML strings (plain, block) get the template scopes', () => {
    for (const needle of ['audience', 'issue.title', 'body}}']) {
      const scopes = at(needle);
      assert.ok(has(scopes, 'variable.other.template.prompt-lens'), `"${needle}": ${scopes.join(' ')}`);
      assert.ok(has(scopes, 'string'), `"${needle}" is still inside the YAML string: ${scopes.join(' ')}`);
    }
    assert.ok(has(at('{{audience'), 'punctuation.definition.template.begin.prompt-lens'));
  });

  it('leaves comments, keys, GitHub Actions ${{ }} and Helm {{ .Values }} alone', () => {
    for (const needle of ['comment_variable', 'github.ref', '.Values', 'messages', 'role'])
      assert.ok(!has(at(needle), 'variable.other.template.prompt-lens'), `"${needle}": ${at(needle).join(' ')}`);
  });
});
