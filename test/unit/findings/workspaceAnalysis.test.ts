import assert from 'node:assert/strict';
import { linearCostModel } from '../../../src/core/findings/costModel';
import { PrefixCacheAnalyser, updateInSlices } from '../../../src/core/findings/prefixCache';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import type { Finding } from '../../../src/core/findings/types';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { LINEAR_PARAMS } from './helpers';

// The workspace analysis keeps state to be fast at scale (issue #19 goal 4): interned first
// messages, remembered places in the sorted order, groups computed once, shared related-file
// entries, memoised chunk encodings and token offsets. Whatever order files arrive in and however
// often they change, its findings and groups must be what a fresh analysis of the same texts says.

const WORDS = 'the order refund policy answer support agent product shipping account invoice warranty price card'.split(
  ' ',
);

function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return (s >>> 8) % n;
  };
}

function prose(next: (n: number) => number, words: number): string {
  return Array.from({ length: words }, (_, i) => `${WORDS[next(WORDS.length)]}${i % 15 === 14 ? '.\n' : ''}`).join(' ');
}

/**
 * Files sharing five system prompts (two dozen twins each, more than a near-miss bucket's limit),
 * with one-word variants (near misses), date lines and template variables in front (cache
 * breakers), and a system prompt that is another's with a sentence added.
 */
function workspace(count: number, seed = 3): Map<string, string> {
  const next = random(seed);
  const systems = Array.from({ length: 5 }, () => prose(next, 1400));
  systems.push(`${systems[0]}\nAlways answer in English.`);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    let system = systems[i % systems.length] as string;
    if (i % 7 === 3) system = system.replace(/ policy /, ' rules ');
    const top = i % 11 === 5 ? 'Today is 2025-03-04.\n' : i % 13 === 6 ? 'Customer: {{customer_name}}\n' : '';
    files.set(`prompts/p${String(i).padStart(3, '0')}.prompt`, `system:\n${top}${system}\nuser:\n${prose(next, 30)}\n`);
  }
  return files;
}

function analyser(): PrefixCacheAnalyser {
  return new PrefixCacheAnalyser({
    tokenizer: getTokenizer('o200k_base'),
    // The shared test model with a provider-like cache rule (1,024-token minimum, 128-token steps).
    costModel: linearCostModel({ ...LINEAR_PARAMS, cacheRule: { minTokens: 1024, granularity: 128 } }),
    settings: { ...DEFAULT_FINDING_SETTINGS.cache, dynamicHints: true },
    rag: DEFAULT_FINDING_SETTINGS.rag,
  });
}

function fresh(files: Map<string, string>, order: (paths: string[]) => string[] = (p) => [...p].reverse()) {
  const a = analyser();
  for (const path of order([...files.keys()])) a.update(path, files.get(path)!, parsePrompt(path, files.get(path)!));
  return a;
}

/** Every file's findings, asked in the order given, then the groups. */
function analysis(
  a: PrefixCacheAnalyser,
  paths: readonly string[],
): { findings: Record<string, Finding[]>; groups: unknown } {
  const findings: Record<string, Finding[]> = {};
  for (const path of paths) findings[path] = a.findingsFor(path);
  return { findings, groups: a.groups() };
}

function codes(findings: Record<string, Finding[]>): Set<string> {
  return new Set(Object.values(findings).flatMap((f) => f.map((x) => x.code)));
}

describe('workspace analysis at scale: the fast path equals a straightforward recomputation', () => {
  it('findings and groups of a sliced analysis equal fresh analyses that ask in another order', async function () {
    this.timeout(120_000);
    const files = workspace(140);
    const paths = [...files.keys()];
    const fast = analyser();
    await updateInSlices(
      fast,
      paths.map((path) => ({ file: path, text: files.get(path)!, parsed: parsePrompt(path, files.get(path)!) })),
      0,
    );
    const result = analysis(fast, paths);
    // The workspace has every finding the shortcuts touch, so the comparison means something.
    assert.deepEqual([...codes(result.findings)].sort(), [
      'cache-breaker',
      'cache-near-miss',
      'dynamic-hint',
      'prefix-cache',
    ]);
    assert.ok((result.groups as unknown[]).length >= 5);
    // Built in reverse and asked in reverse: no cache of one order serves the other.
    const reversed = fresh(files);
    const again = analysis(reversed, [...paths].reverse());
    assert.deepEqual(again.findings, result.findings);
    assert.deepEqual(again.groups, result.groups);
    // A file asked first of a freshly built analyser (nothing computed before it), for a sample of files.
    for (const path of paths.filter((_, i) => i % 23 === 0)) {
      const alone = fresh(files, (p) => p);
      assert.deepEqual(alone.findingsFor(path), result.findings[path], path);
    }
  });

  it('after edits and removals, re-analysing the changed files gives what a fresh analysis gives', async function () {
    this.timeout(120_000);
    const files = workspace(90, 5);
    const paths = [...files.keys()];
    const a = analyser();
    await updateInSlices(
      a,
      paths.map((path) => ({ file: path, text: files.get(path)!, parsed: parsePrompt(path, files.get(path)!) })),
      0,
    );
    analysis(a, paths); // every cache filled before the edits
    const next = random(11);
    for (let step = 0; step < 12; step++) {
      // Every third step a new file (nothing of the index knew it), else one of the workspace's.
      const path = step % 3 === 2 ? `prompts/new${step}.prompt` : paths[next(paths.length)]!;
      const donor = files.get(paths[next(paths.length)]!);
      if (step % 5 === 4 || donor === undefined) {
        a.remove(path);
        files.delete(path);
      } else {
        // Take another file's system prompt (joining its group), or change one word of it (a near miss).
        const text =
          step % 2 ? donor.replace(/ refund /, ' return ') : donor.replace(/\nuser:\n/, `\nuser:\nStep ${step}. `);
        a.update(path, text, parsePrompt(path, text));
        files.set(path, text);
        a.findingsFor(path); // the editor re-analyses the changed file at once
      }
      const current = [...files.keys()];
      assert.deepEqual(analysis(a, current), analysis(fresh(files), current), `after step ${step}`);
    }
  });
});
