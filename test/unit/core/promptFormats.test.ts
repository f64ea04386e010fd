import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  formatOf,
  formatOfLanguage,
  PROMPT_FORMATS,
  promptActivationEvents,
  promptFileWhenClause,
} from '../../../src/core/prompt/formats';
import { promptFileMatcher } from '../../../src/core/promptFiles';

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  activationEvents: string[];
  contributes: {
    languages: Array<{ id: string; extensions: string[] }>;
    menus: { 'editor/title': Array<{ command: string; when: string }> };
  };
};

describe('one definition of "prompt file" (core/prompt/formats.ts)', () => {
  it("package.json's activation events are the derived ones (plus the results view's)", () => {
    const prompts = manifest.activationEvents.filter((e) => !e.startsWith('onWebviewPanel:'));
    assert.deepEqual(prompts, promptActivationEvents());
  });

  it('a workspace with only prompts/*.md activates (the default include globs are activation events)', () => {
    assert.ok(manifest.activationEvents.includes('workspaceContains:**/prompts/**/*.md'));
  });

  it("the Benchmark button's `when` clause is the derived one", () => {
    const button = manifest.contributes.menus['editor/title'].find((m) => m.command === 'promptLens.benchmarkPrompt');
    assert.equal(button?.when, promptFileWhenClause());
  });

  it('the contributed languages own exactly their formats’ suffixes', () => {
    for (const format of PROMPT_FORMATS.filter((f) => f.language)) {
      const language = manifest.contributes.languages.find((l) => l.id === format.language);
      assert.deepEqual(language?.extensions, format.suffixes, format.id);
    }
  });

  it('plain .prompt files have a language of ours; VS Code\'s own "prompt" language is .prompt.md', () => {
    assert.equal(formatOfLanguage('prompt-lens-plain')?.id, 'plain');
    assert.equal(formatOfLanguage('prompt')?.id, 'prompt-md');
    assert.equal(formatOfLanguage('prompty')?.id, 'prompty');
    assert.equal(formatOfLanguage('markdown'), undefined);
    assert.ok(!manifest.contributes.languages.some((l) => l.id === 'prompt'), 'VS Code contributes "prompt"');
    assert.ok(manifest.activationEvents.includes('onLanguage:prompt'));
  });

  it('the matcher, the format and the when clause agree on each built-in glob', () => {
    const matches = promptFileMatcher([]);
    const when = /resourceFilename =~ \/(.*)\/$/.exec(promptFileWhenClause())![1]!;
    for (const format of PROMPT_FORMATS) {
      // A path each of its globs matches (`.cursor/rules/**/*.mdc`: an .mdc elsewhere is no rule).
      const globs = format.globs ?? [
        ...format.suffixes.map((s) => `**/*${s}`),
        ...(format.names ?? []).map((n) => `**/${n}`),
      ];
      for (const glob of globs) {
        const path = glob.replaceAll('**/', 'deep/dir/').replaceAll('*', 'Name');
        assert.equal(formatOf(path), format.id, path);
        assert.equal(matches(path), format.builtin, `matcher on ${path}`);
        // Instruction files are prepended to requests, not requests of their own: no Benchmark button.
        // By name alone, whatever language the editor gives it (files.associations, Change Language Mode).
        assert.equal(new RegExp(when).test(path), format.builtin && !format.instructions, `when clause on ${path}`);
      }
    }
    assert.equal(promptFileMatcher()('prompts/guide.md'), true, 'default include globs');
    assert.equal(formatOf('notes.txt'), 'plain');
  });
});
