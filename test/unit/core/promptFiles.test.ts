import assert from 'node:assert/strict';
import { BUILTIN_PROMPT_GLOBS, DEFAULT_INCLUDE_GLOBS } from '../../../src/core/prompt/formats';
import { MAX_MATCHED_PATH, globProblem, promptFileMatcher } from '../../../src/core/promptFiles';

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
