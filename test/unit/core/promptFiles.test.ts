import assert from 'node:assert/strict';
import { BUILTIN_PROMPT_GLOBS, DEFAULT_INCLUDE_GLOBS, builtinPromptGlobs } from '../../../src/core/prompt/formats';
import picomatch from 'picomatch';
import { MAX_MATCHED_PATH, globProblem, promptFileMatcher, searchGlobs } from '../../../src/core/promptFiles';

describe('include globs: bounded matching on the extension host (issue 16 item 5)', () => {
  it('accepts the built-in and default globs and the usual shapes', () => {
    for (const glob of [
      ...BUILTIN_PROMPT_GLOBS,
      ...DEFAULT_INCLUDE_GLOBS,
      '**/*.txt',
      'prompts/**/*.{md,txt}',
      '**/a?b*.md',
    ])
      assert.equal(globProblem(glob), undefined, glob);
  });

  it('refuses two * in a segment (braces included), three ** segments and extglobs, naming the cause', () => {
    assert.match(globProblem('**/*e*e*e*e*e*e*e*e*e*e*e*e*.prompt')!, /one \* per path segment/);
    assert.match(globProblem('**/{*e,*ee,*eee}.md')!, /\{\*e,\*ee,\*eee\}\.md/);
    assert.match(globProblem('**/a/**/b/**/c.md')!, /two \*\* segments/);
    assert.match(globProblem('**/+(a|b).md')!, /extglobs/);
    assert.match(globProblem('a**b/x.md')!, /one \* per path segment/);
  });

  it('never matches a path longer than the bound, and matches one at the bound', () => {
    const matches = promptFileMatcher(['**/*.md']);
    const at = `${'d/'.repeat((MAX_MATCHED_PATH - 4) / 2)}x.md`;
    assert.equal(at.length, MAX_MATCHED_PATH);
    assert.equal(matches(at), true);
    assert.equal(matches(`d${at}`), false);
  });
});

describe('the workspace search: built-in globs in one search (one ripgrep process, not one per glob)', () => {
  const paths = [
    'a.prompty',
    'x/y/support.prompt',
    'p.prompt.yml',
    'deep/p.prompt.yaml',
    'r.prompt.md',
    '.github/copilot-instructions.md',
    'docs/.github/copilot-instructions.md',
    'a/b.instructions.md',
    'x.agent.md',
    'y.chatmode.md',
    'AGENTS.md',
    'sub/AGENTS.md',
    'skills/pdf/SKILL.md',
    '.cursorrules',
    '.cursor/rules/style.mdc',
    'pkg/.cursor/rules/deep/x.mdc',
    'prompts/a.md',
    'prompts/q/b.json',
    'prompts/c.yaml',
    'README.md',
    'src/main.ts',
    'a.prompty.bak',
    'agents.md',
    'notes.txt',
  ];
  const matched = (globs: readonly string[]) => {
    const isMatch = picomatch([...globs], { dot: true });
    return paths.filter((path) => isMatch(path));
  };

  it('finds exactly what one search per glob finds, with each include glob searched on its own', () => {
    const globs = searchGlobs(DEFAULT_INCLUDE_GLOBS);
    assert.deepEqual(globs.slice(1), [
      '**/.github/copilot-instructions.md',
      '**/.cursor/rules/**/*.mdc',
      ...DEFAULT_INCLUDE_GLOBS,
    ]);
    assert.equal((globs[0]!.match(/[{}]/g) ?? []).join(''), '{}', 'one group, not nested');
    assert.deepEqual(matched(globs), matched([...BUILTIN_PROMPT_GLOBS, ...DEFAULT_INCLUDE_GLOBS]));
    assert.equal(matched(globs).length, 18);
  });

  it('leaves a disabled format out of the group', () => {
    const globs = searchGlobs(['**/*.txt'], ['agents-md', 'cursor-rules']);
    const found = matched(globs);
    assert.deepEqual(found, matched([...builtinPromptGlobs(['agents-md', 'cursor-rules']), '**/*.txt']));
    assert.ok(found.includes('notes.txt') && found.includes('x/y/support.prompt'));
    assert.deepEqual(
      found.filter((p) => /AGENTS\.md$|cursor/.test(p)),
      [],
    );
  });
});
