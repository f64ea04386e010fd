import assert from 'node:assert/strict';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { detectRegions } from '../../../src/core/findings/rag';
import { markdownCodeRanges } from '../../../src/core/prompt/markdownCode';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { splitFrontMatter } from '../../../src/core/prompt/frontMatter';
import { BUILTIN_PROMPT_GLOBS, formatOf, SWITCHABLE_FORMATS } from '../../../src/core/prompt/formats';
import { promptFileMatcher } from '../../../src/core/promptFiles';
import packageJson from '../../../package.json';

const code = (text: string): string[] => markdownCodeRanges(text).map((r) => text.slice(r.start, r.end));
const variables = (fileName: string, text: string): string[] =>
  parsePrompt(fileName, text).variables.map((v) => text.slice(v.range.start, v.range.end));

describe('Markdown code (CommonMark 0.31.2)', () => {
  it('fenced code blocks: backticks or tildes, closed by the same character at least as long, or by the end (§4.5)', () => {
    // Examples 119, 120: the simplest fences.
    assert.deepEqual(code('```\n<\n >\n```\nafter'), ['```\n<\n >\n```']);
    assert.deepEqual(code('~~~\n<\n >\n~~~'), ['~~~\n<\n >\n~~~']);
    // Example 122: a tilde line does not close a backtick fence.
    assert.deepEqual(code('```\naaa\n~~~\n```'), ['```\naaa\n~~~\n```']);
    // Example 124: the closing fence is at least as long as the opening one.
    assert.deepEqual(code('````\naaa\n```\n``````'), ['````\naaa\n```\n``````']);
    // Example 126: an unclosed fence runs to the end of the document.
    assert.deepEqual(code('```\n\n  \naaa'), ['```\n\n  \naaa']);
    // Example 131: up to three spaces of indentation.
    assert.deepEqual(code('   ```\n   aaa\n  ```'), ['   ```\n   aaa\n  ```']);
  });

  it('inline code spans: a backtick run closed by a run of the same length (§6.1)', () => {
    // Example 328.
    assert.deepEqual(code('`foo`'), ['`foo`']);
    // Example 329: a double-backtick span holds a single backtick.
    assert.deepEqual(code('`` foo ` bar ``'), ['`` foo ` bar ``']);
    // Example 121: two backticks are not a fence but a code span.
    assert.deepEqual(code('``\nfoo\n``'), ['``\nfoo\n``']);
    // Example 145: a backtick fence's info string cannot hold backticks, so this is a span.
    assert.deepEqual(code('``` aa ```\nfoo'), ['``` aa ```']);
    // Example 346 (`foo``bar``): the single backtick has no partner, the double pair is a span.
    assert.deepEqual(code('`foo``bar``'), ['``bar``']);
    // Examples 347, 348: unmatched runs are literal text.
    assert.deepEqual(code('```foo``'), []);
    assert.deepEqual(code('`foo'), []);
    // A span never crosses a blank line (it would end the paragraph).
    assert.deepEqual(code('`foo\n\nbar`'), []);
  });
});

describe('template languages: only the file’s own syntax, outside literal text, is a variable', () => {
  it('plain prompts: {{ x }} and {% … %} outside code; examples in code, GitHub Actions and non-names are text', () => {
    const text = [
      'Hello {{ name }}, {% if vip %}VIP{% endif %}.',
      'Inline `{{ not_this }}` and a fence:',
      '```yaml',
      'runs-on: ${{ matrix.os }}',
      '{{ nor_this }}',
      '```',
      'Also ${{ matrix.runner }}, {{ height: "600px" }}, {{}}, {{.HasError}} and {# {{ commented }} #}.',
    ].join('\n');
    assert.deepEqual(variables('a.prompt', text), ['{{ name }}', '{% if vip %}', '{% endif %}']);
  });

  it('Prompty renders with Jinja2 by default, fences included (Jinja knows no Markdown); raw blocks and comments stay text', () => {
    const text =
      '---\nname: t\n---\nsystem:\n```\n{{ in_fence }}\n```\n{% raw %}{{ raw }}{% endraw %}{# {{ comment }} #}{{ x }}';
    assert.deepEqual(variables('a.prompty', text), ['{{ in_fence }}', '{{ x }}']);
    assert.equal(parsePrompt('a.prompty', text).engine, 'jinja2');
  });

  it('Prompty with the Mustache engine declared (spec §2.8, both forms): sections and names, no {% %}', () => {
    for (const template of [
      'template: mustache',
      'template:\n  format:\n    kind: mustache\n  parser:\n    kind: prompty',
    ]) {
      const text = `---\n${template}\n---\nuser:\n{{#items}}- {{name}}\n{{/items}}{{! note }} {% if x %}`;
      const parsed = parsePrompt('a.prompty', text);
      assert.equal(parsed.engine, 'mustache', template);
      assert.deepEqual(
        parsed.variables.map((v) => text.slice(v.range.start, v.range.end)),
        ['{{#items}}', '{{name}}', '{{/items}}'],
      );
    }
    const unknown = parsePrompt('a.prompty', '---\ntemplate: handlebars\n---\nuser:\n{{x}}');
    assert.match(unknown.errors[0]?.message ?? '', /engine "handlebars" is not one this extension reads/);
    assert.equal(unknown.errors[0]?.severity, 'warning');
  });

  it('.prompt.yml (GitHub Models): {{name}} anywhere in a message, nothing else', () => {
    const text = 'messages:\n  - role: user\n    content: "Summarise {{input}} in `{{lang}}`; {% if x %} {{ a: 1 }}"\n';
    assert.deepEqual(variables('a.prompt.yml', text), ['{{input}}', '{{lang}}']);
  });

  it('.prompt.yml literal blocks (content: |) are re-indented, yet each variable is placed at its own text', () => {
    const text =
      'messages:\n  - role: system\n    content: |\n      Hello {{x}}\n\n      world {{ y }}\n  - role: user\n    content: hi {{z}}\n';
    assert.deepEqual(variables('a.prompt.yml', text), ['{{x}}', '{{ y }}', '{{z}}']);
    // A folded block (>) joins lines: its variables can only be placed at the message.
    const folded = 'messages:\n  - role: user\n    content: >\n      Hello\n      {{x}}\n';
    assert.ok(variables('a.prompt.yml', folded)[0]?.startsWith('>'));
  });

  it('.prompt.md (VS Code): ${input:…}, ${selection}, ${file}… outside code; workspace folders are stable', () => {
    const text =
      '---\nmode: agent\n---\nReview ${selection} in ${file} for ${input:focus:error handling}.\n' +
      'Not `${input:code}`, not ${env:HOME}, not {{x}}. Root: ${workspaceFolder}\n```\n${selection}\n```\n';
    const parsed = parsePrompt('review.prompt.md', text);
    assert.deepEqual(
      parsed.variables.map((v) => [v.name, v.stable ?? false]),
      [
        ['selection', false],
        ['file', false],
        ['input:focus', false],
        ['workspaceFolder', true],
      ],
    );
  });

  it('instruction files are sent as written: no template language at all', () => {
    for (const name of ['a.instructions.md', 'x.agent.md', 'skills/s/SKILL.md', 'AGENTS.md', '.cursorrules']) {
      const text = '---\ndescription: d\n---\nUse {{ name }}, ${input:Plan}, ${selection} and {% if x %} as written.\n';
      assert.deepEqual(variables(name, text), [], name);
    }
  });
});

describe('prompt file formats', () => {
  it('file names map to formats; a disabled format is plain text and its glob matches nothing', () => {
    const cases: Array<[string, string]> = [
      ['.github/instructions/ts.instructions.md', 'instructions'],
      ['.github/agents/reviewer.agent.md', 'agent'],
      ['.github/chatmodes/plan.chatmode.md', 'agent'],
      ['.github/copilot-instructions.md', 'copilot-instructions'],
      ['AGENTS.md', 'agents-md'],
      ['pkg/AGENTS.md', 'agents-md'],
      ['.github/skills/pdf/SKILL.md', 'skill'],
      ['.cursorrules', 'cursor-rules'],
      ['.cursor/rules/style.mdc', 'cursor-rules'],
      ['a.prompt.md', 'prompt-md'],
      ['a.prompty', 'prompty'],
      ['a.prompt.yml', 'prompt-yaml'],
      ['notes.md', 'plain'],
      ['prompts/chat.json', 'chat-json'],
    ];
    for (const [path, format] of cases) assert.equal(formatOf(path), format, path);
    const all = promptFileMatcher([]);
    for (const [path] of cases.slice(0, 12)) assert.ok(all(path), path);
    assert.equal(all('notes.md'), false);
    assert.equal(all('.cursor/other/x.mdc'), false);
    const noSkills = promptFileMatcher([], ['skill']);
    assert.equal(noSkills('.github/skills/pdf/SKILL.md'), false);
    assert.equal(noSkills('AGENTS.md'), true);
    assert.equal(formatOf('SKILL.md', ['skill']), 'plain');
    assert.equal(parsePrompt('SKILL.md', 'Use {{ x }}', { disabledFormats: ['skill'] }).variables.length, 1);
  });

  it('package.json activates on every built-in glob and lists the switchable formats as the enum', () => {
    for (const glob of BUILTIN_PROMPT_GLOBS)
      assert.ok(packageJson.activationEvents.includes(`workspaceContains:${glob}`), glob);
    const setting = packageJson.contributes.configuration.properties['promptLens.formats.disabled'];
    assert.deepEqual([...setting.items.enum].sort(), [...SWITCHABLE_FORMATS].sort());
  });

  it('*.instructions.md (VS Code custom instructions): applyTo globs, "**" for every request, none when absent', () => {
    const read = (front: string) => parsePrompt('x.instructions.md', `---\n${front}\n---\n# Rules\nUse tabs.\n`);
    assert.deepEqual(read("applyTo: '**/*.ts,**/*.tsx'").settings.activation, {
      kind: 'globs',
      globs: ['**/*.ts', '**/*.tsx'],
    });
    assert.deepEqual(read("applyTo: '**'").settings.activation, { kind: 'always' });
    assert.deepEqual(read("description: 'TypeScript rules'").settings.activation, {
      kind: 'on-request',
      description: 'TypeScript rules',
    });
    assert.deepEqual(read('name: x').settings.activation, { kind: 'manual' });
    // Unquoted, as people write it (YAML would read `**` as an alias); no YAML error either.
    const unquoted = read('applyTo: **/*.py');
    assert.deepEqual(unquoted.settings.activation, { kind: 'globs', globs: ['**/*.py'] });
    assert.deepEqual(unquoted.errors, []);
    const body = read("applyTo: '**'");
    assert.deepEqual(
      body.messages.map((m) => [m.role, m.text]),
      [['system', '# Rules\nUse tabs.\n']],
    );
  });

  it('copilot-instructions.md, AGENTS.md and .cursorrules apply to every request, whole file as the system message', () => {
    for (const name of ['.github/copilot-instructions.md', 'AGENTS.md', '.cursorrules']) {
      const text = '# Project\n\n- Run `npm test` before committing.\n';
      const parsed = parsePrompt(name, text);
      assert.deepEqual(parsed.settings.activation, { kind: 'always' }, name);
      assert.deepEqual(
        parsed.messages.map((m) => [m.role, m.text]),
        [['system', text]],
      );
    }
  });

  it('Cursor .mdc rules: alwaysApply, globs, description, or manual (Cursor rules docs)', () => {
    const rule = (front: string) => parsePrompt('.cursor/rules/r.mdc', `---\n${front}\n---\n- Prefer early returns.\n`);
    assert.deepEqual(rule('description: Always\nglobs:\nalwaysApply: true').settings.activation, { kind: 'always' });
    assert.deepEqual(rule('description: Python rules\nglobs: **/*.py\nalwaysApply: false').settings.activation, {
      kind: 'globs',
      globs: ['**/*.py'],
    });
    assert.deepEqual(rule('description: Deployment checklist\nalwaysApply: false').settings.activation, {
      kind: 'on-request',
      description: 'Deployment checklist',
    });
    assert.deepEqual(rule('alwaysApply: false').settings.activation, { kind: 'manual' });
  });

  it('custom agents (.agent.md, VS Code custom agent reference) and skills (agentskills.io SKILL.md)', () => {
    const agent = parsePrompt(
      '.github/agents/reviewer.agent.md',
      "---\nname: Reviewer\ndescription: Review changes without editing files\ntools: ['read', 'search']\n---\nReview the supplied changes for correctness and missing tests.\n",
    );
    assert.deepEqual(agent.settings.activation, { kind: 'agent' });
    assert.equal(agent.messages[0]?.text, 'Review the supplied changes for correctness and missing tests.\n');
    const skill = parsePrompt(
      'skills/pdf-processing/SKILL.md',
      '---\nname: pdf-processing\ndescription: Extract text and tables from PDF files, fill forms, merge documents.\nlicense: Apache-2.0\nmetadata:\n  author: example-org\n  version: "1.0"\n---\n# PDF processing\n',
    );
    assert.deepEqual(skill.settings.activation, {
      kind: 'on-request',
      description: 'Extract text and tables from PDF files, fill forms, merge documents.',
    });
    assert.deepEqual(skill.errors, []);
  });

  it('instruction files have no retrieved-context regions: a "## Context" heading there is documentation', () => {
    const text = `## Context\n${'This repository builds a CLI. '.repeat(200)}\n<context>static notes</context>\n`;
    const rag = DEFAULT_FINDING_SETTINGS.rag;
    assert.deepEqual(detectRegions(parsePrompt('AGENTS.md', text), text, rag), []);
    assert.deepEqual(
      detectRegions(parsePrompt('prompts/a.md', text), text, rag).map((r) => r.kind),
      ['heading'],
    );
    const own = detectRegions(parsePrompt('AGENTS.md', text), text, { ...rag, pattern: '<context>[^<]*</context>' });
    assert.deepEqual(
      own.map((r) => r.kind),
      ['pattern'],
    );
  });
});

describe('Prompty (microsoft/prompty spec/spec.md)', () => {
  it('§2.2 front matter splitting: the four test vectors', () => {
    const vectors: Array<[string, string | undefined, string]> = [
      ['---\nname: test\n---\nHello world', 'name: test', 'Hello world'],
      ['Just a prompt with no frontmatter', undefined, 'Just a prompt with no frontmatter'],
      ['---\n---\nBody only', '', 'Body only'],
      ['  ---\nname: test\n---\nBody', 'name: test', 'Body'],
    ];
    for (const [input, frontMatter, body] of vectors) {
      const split = splitFrontMatter(input, 'prompty');
      assert.equal(split.yaml?.text, frontMatter, input);
      assert.equal(split.body, body, input);
    }
    assert.equal(splitFrontMatter('+++\nname: t\n+++\nBody', 'prompty').yaml?.text, 'name: t');
  });

  it('§2.4 model: the shorthand string and the expanded form', () => {
    assert.equal(parsePrompt('a.prompty', '---\nmodel: gpt-4\n---\nHi').settings.model, 'gpt-4');
    const full =
      '---\nmodel:\n  id: gpt-4\n  provider: openai\n  apiType: chat\n  options:\n    temperature: 0.7\n---\nHi';
    assert.equal(parsePrompt('a.prompty', full).settings.model, 'gpt-4');
  });

  it('§2.10 role markers (# prefix, attributes, any case); content before any marker is the system message', () => {
    const text = '---\nname: t\n---\nPreamble.\n# USER:\nQuestion\nassistant[nonce=abc123]:\nAnswer\n';
    assert.deepEqual(
      parsePrompt('a.prompty', text).messages.map((m) => [m.role, m.text]),
      [
        ['system', 'Preamble.'],
        ['user', 'Question'],
        ['assistant', 'Answer'],
      ],
    );
    assert.deepEqual(
      parsePrompt('a.prompty', '---\nmodel: gpt-4\n---\nNo markers at all.').messages.map((m) => m.role),
      ['system'],
    );
  });

  it('§2.11 ${env:} and ${file:} references are kept as written, never "Invalid input"; an env default picks the model', () => {
    const text = [
      '---',
      'model:',
      '  id: ${env:MODEL_ID:gpt-4o}',
      '  connection:',
      '    kind: key',
      '    endpoint: ${env:OPENAI_ENDPOINT:https://api.openai.com/v1}',
      '    apiKey: ${env:OPENAI_API_KEY}',
      'inputs: ${file:schema.json}',
      '---',
      'user:',
      '{{question}}',
    ].join('\n');
    const parsed = parsePrompt('a.prompty', text);
    assert.equal(parsed.settings.model, 'gpt-4o');
    assert.deepEqual(
      parsed.settings.references?.map((r) => [r.protocol, r.target, r.fallback ?? null, r.field]),
      [
        ['env', 'MODEL_ID', 'gpt-4o', 'model.id'],
        ['env', 'OPENAI_ENDPOINT', 'https://api.openai.com/v1', 'model.connection.endpoint'],
        ['env', 'OPENAI_API_KEY', null, 'model.connection.apiKey'],
        ['file', 'schema.json', null, 'inputs'],
      ],
    );
    const ref = parsed.settings.references![3]!;
    assert.equal(text.slice(ref.range.start, ref.range.end), '${file:schema.json}');
    assert.equal(parsed.errors.filter((e) => e.severity !== 'warning').length, 0, JSON.stringify(parsed.errors));
    assert.match(parsed.errors[0]?.message ?? '', /front matter\.inputs: \$\{file:schema\.json\} is read by Prompty/);
  });

  it('§2.7 / §4.4 inputs: a list of properties or a map whose scalar values are defaults, filling the template', () => {
    const map = parsePrompt(
      'a.prompty',
      '---\ninputs:\n  firstName: Jane\n  count: 3\n---\nuser:\n{{firstName}} x{{count}}',
    );
    assert.equal(map.messages[0]?.rendered, 'Jane x3');
    const list = parsePrompt(
      'a.prompty',
      '---\ninputs:\n  - name: firstName\n    kind: string\n    default: Jane\n  - name: question\n    kind: string\n---\nuser:\n{{firstName}}: {{question}}',
    );
    assert.equal(list.messages[0]?.rendered, 'Jane: {{question}}');
  });
});
