import assert from 'node:assert/strict';
import { applySuppression, readPragmas } from '../../../src/core/findings/pragma';
import { DEFAULT_FINDING_SETTINGS, parseFindingSettings } from '../../../src/core/findings/settings';
import type { Finding, FindingCode } from '../../../src/core/findings/types';

const finding = (file: string, code: FindingCode): Finding => ({
  code,
  severity: 'warning',
  message: code,
  file,
  range: { start: 0, end: 1 },
  data: {},
});

describe('pragmas', () => {
  it('reads codes from HTML, YAML and Jinja comments', () => {
    assert.deepEqual(
      [...readPragmas('<!-- prompt-lens-disable rag-budget, cache-breaker -->\nbody').codes],
      ['rag-budget', 'cache-breaker'],
    );
    assert.deepEqual(
      [...readPragmas('---\n# prompt-lens-disable prefix-cache\nmodel: x\n---').codes],
      ['prefix-cache'],
    );
    assert.deepEqual([...readPragmas('{# prompt-lens-disable rag-duplicate #}').codes], ['rag-duplicate']);
    assert.equal(readPragmas('{# prompt-lens-disable rag-duplicate #}').all, false);
  });

  it('disables everything without codes and lists unknown words', () => {
    assert.equal(readPragmas('<!-- prompt-lens-disable -->').all, true);
    assert.equal(readPragmas('# prompt-lens-disable').all, true);
    assert.deepEqual(readPragmas('# prompt-lens-disable rag-budgett').unknown, ['rag-budgett']);
    assert.equal(readPragmas('no pragma here').all, false);
  });

  it('filters findings by the file pragmas and by the disabled setting', () => {
    const texts: Record<string, string> = {
      a: '<!-- prompt-lens-disable rag-budget -->',
      b: '# prompt-lens-disable',
      c: '',
    };
    const all = ['a', 'b', 'c'].flatMap((f) => [finding(f, 'rag-budget'), finding(f, 'cache-breaker')]);
    const kept = applySuppression(all, ['cache-breaker'], (f) => readPragmas(texts[f] ?? ''));
    assert.deepEqual(
      kept.map((f) => `${f.file}:${f.code}`),
      ['c:rag-budget'],
    );
  });
});

describe('finding settings', () => {
  it('defaults every field', () => {
    assert.equal(DEFAULT_FINDING_SETTINGS.rag.maxTokens, 4000);
    assert.equal(DEFAULT_FINDING_SETTINGS.rag.maxShare, 0.6);
    assert.deepEqual(parseFindingSettings(undefined), { settings: DEFAULT_FINDING_SETTINGS, problems: [] });
  });

  it('names a bad field, falls back to its default and keeps the valid ones', () => {
    const { settings, problems } = parseFindingSettings({
      rag: { maxTokens: -5, maxShare: 0.5, pattern: '([' },
      disabled: ['rag-budget', 'nope'],
    });
    assert.equal(settings.rag.maxTokens, 4000);
    assert.equal(settings.rag.maxShare, 0.5);
    assert.equal(settings.rag.pattern, undefined);
    assert.deepEqual(settings.disabled, ['rag-budget'], 'only the bad item is dropped');
    assert.equal(problems.length, 3);
    assert.ok(problems.some((p) => p.startsWith('rag.maxTokens: ')));
    assert.ok(problems.some((p) => p === 'rag.pattern: is not a valid regular expression'));
    assert.ok(problems.some((p) => p.startsWith('disabled[1]: Invalid option')));
  });

  it('rejects a non-object', () => {
    const { settings, problems } = parseFindingSettings(42);
    assert.deepEqual(settings, DEFAULT_FINDING_SETTINGS);
    assert.equal(problems.length, 1);
  });
});

describe('dynamic pragmas', () => {
  const sources = (text: string) => readPragmas(text).dynamic.map((re) => re.source);

  it('reads the pattern up to the comment close, in every comment syntax', () => {
    assert.deepEqual(sources('<!-- prompt-lens-dynamic ORD-\\d+ -->'), ['ORD-\\d+']);
    assert.deepEqual(sources('{# prompt-lens-dynamic ORD-\\d+#}'), ['ORD-\\d+']);
    assert.deepEqual(sources('/* prompt-lens-dynamic a|b */ after'), ['a|b']);
    assert.deepEqual(sources('# prompt-lens-dynamic id=\\w+   \nnext line'), ['id=\\w+']);
    assert.deepEqual(sources('{% prompt-lens-dynamic x %}\n<!-- prompt-lens-dynamic y -->'), ['x', 'y']);
    assert.equal(readPragmas('# prompt-lens-dynamic a').dynamic[0]?.flags, 'g');
    assert.deepEqual(readPragmas('<!-- prompt-lens-dynamic ok -->').invalidDynamic, []);
  });

  it('skips an empty pattern and lists invalid ones as written', () => {
    const pragmas = readPragmas('<!-- prompt-lens-dynamic -->\n# prompt-lens-dynamic ([\n');
    assert.deepEqual(pragmas.dynamic, []);
    assert.deepEqual(pragmas.invalidDynamic, ['([']);
  });
});
