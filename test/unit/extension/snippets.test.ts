import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { readPragmas } from '../../../src/core/findings/pragma';
import { detectRegions } from '../../../src/core/findings/rag';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { FINDING_CODES } from '../../../src/core/findings/types';
import { parsePrompt } from '../../../src/core/prompt/parse';

const root = join(__dirname, '../../..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  contributes: { snippets: Array<{ language: string; path: string }> };
};
type Snippet = { prefix: string | string[]; body: string[]; scope?: string };
const files = manifest.contributes.snippets.map((s) => s.path);
const snippets = Object.fromEntries(
  [...new Set(files)].flatMap((path) =>
    Object.entries(parseJsonc(readFileSync(join(root, path), 'utf8')) as Record<string, Snippet>),
  ),
);

/** The text a snippet inserts when every placeholder keeps its default (a choice: its first option). */
function expand(name: string, choice = 0): string {
  const snippet = snippets[name];
  assert.ok(snippet, `no snippet "${name}"`);
  return snippet.body
    .join('\n')
    .replace(/\$\{\d+\|([^|]*)\|\}/g, (_, options: string) => options.split(',')[choice]!)
    .replace(/\$\{\d+:((?:\\\}|[^}])*)\}/g, (_, value: string) => value)
    .replace(/\$\d+/g, '')
    .replace(/\\([}$\\])/g, '$1');
}

describe('snippets', () => {
  it('are contributed to the plain prompt, VS Code prompt and prompty languages', () => {
    assert.deepEqual(manifest.contributes.snippets.map((s) => s.language).sort(), [
      'prompt',
      'prompt-lens-plain',
      'prompty',
    ]);
  });

  it('each language gets one form of each pragma snippet (its scope names the languages)', () => {
    for (const { language } of manifest.contributes.snippets)
      for (const prefix of ['prompt-lens-disable', 'prompt-lens-dynamic']) {
        const forms = Object.values(snippets).filter(
          (s) => s.prefix === prefix && (s.scope === undefined || s.scope.split(',').includes(language)),
        );
        assert.equal(forms.length, 1, `${prefix} in ${language}`);
      }
  });

  it('"New prompt" is a system and a user message with a template variable', () => {
    const parsed = parsePrompt('new.prompt', expand('New prompt (system and user)'));
    assert.deepEqual(
      parsed.messages.map((m) => m.role),
      ['system', 'user'],
    );
    assert.deepEqual(
      parsed.variables.map((v) => v.name),
      ['question'],
    );
  });

  it('"Retrieved-context block" is a retrieved-context region', () => {
    const text = `system:\nAnswer from the documents.\n\nuser:\n${expand('Retrieved-context block')}\nWhat changed?`;
    const regions = detectRegions(parsePrompt('rag.prompt', text), text, DEFAULT_FINDING_SETTINGS.rag);
    assert.equal(regions.length, 1, JSON.stringify(regions));
  });

  it('the pragmas offer every finding code and read back as written', () => {
    for (const name of ['Disable findings here (pragma)', 'Disable findings here (pragma, Jinja comment)']) {
      const choices = /\$\{1\|([^|]*)\|\}/.exec(snippets[name]!.body.join('\n'))?.[1]?.split(',');
      assert.deepEqual(choices, [...FINDING_CODES]);
      FINDING_CODES.forEach((code, i) => {
        const pragmas = readPragmas(expand(name, i));
        assert.deepEqual([...pragmas.codes], [code]);
        assert.deepEqual(pragmas.unknown, []);
      });
    }
    for (const name of ['Declare text dynamic (pragma)', 'Declare text dynamic (pragma, Jinja comment)']) {
      const [pattern] = readPragmas(expand(name)).dynamic;
      assert.ok(pattern?.test('Today is 2026-12-01.'), `${name}: ${expand(name)}`);
    }
  });
});
