// `npm run corpus`: the precision of every finding on the labelled corpora.
// 1. test/corpus/files, written in the style of real prompt and instruction files, labelled in
//    test/corpus/labels.json (always present).
// 2. The public files of test/corpus/public.json (github/awesome-copilot at a fixed commit), read
//    from a local copy when there is one: PROMPT_LENS_CORPUS_MIRROR (a clone or a bare mirror), else
//    the default places below. Nothing is downloaded; without a copy, this part says so and is skipped.
// Exit 1 when a goal is not met on what was measured.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import picomatch from 'picomatch';
import { promptFileMatcher } from '../src/core/promptFiles';
import {
  defaultReport,
  formatScore,
  GOALS,
  goalLine,
  LabelledCorpus,
  precisionOf,
  PublicManifest,
  score,
  type Score,
} from './corpusEval';

const ROOT = join(__dirname, '..');
const CORPUS = join(ROOT, 'test/corpus');
const MIRRORS = ['/work/.mirror/github+awesome-copilot/repo', join(ROOT, '.corpus/awesome-copilot')];

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path).replace(/\\/g, '/')];
  });
}

/** The in-repo corpus: every prompt file under test/corpus/files, as the report would find it. */
export function labelledInputs(include: readonly string[]): Array<{ path: string; text: string }> {
  const dir = join(CORPUS, 'files');
  const isPrompt = promptFileMatcher(include);
  return walk(dir)
    .filter(isPrompt)
    .sort()
    .map((path) => ({ path, text: readFileSync(join(dir, path), 'utf8') }));
}

function git(dir: string, args: string[], input?: string): { ok: boolean; out: Buffer } {
  const run = spawnSync('git', ['-C', dir, ...args], { input, maxBuffer: 512 * 1024 * 1024 });
  return { ok: run.status === 0, out: run.stdout ?? Buffer.alloc(0) };
}

/** The manifest's files at its commit, from a clone or bare mirror; a reason when there is none. */
export function publicInputs(
  manifest: PublicManifest,
  mirror = process.env.PROMPT_LENS_CORPUS_MIRROR,
): { dir: string; files: Array<{ path: string; text: string }> } | string {
  const candidates = mirror ? [mirror] : MIRRORS;
  const dir = candidates.find((d) => existsSync(d));
  if (!dir)
    return `no local copy of ${manifest.repo} (looked in ${candidates.join(', ')}); clone ${manifest.url} and set PROMPT_LENS_CORPUS_MIRROR to it`;
  if (!git(dir, ['cat-file', '-e', `${manifest.commit}^{commit}`]).ok)
    return `${dir} does not hold commit ${manifest.commit} of ${manifest.repo}; fetch it there first`;
  const isWanted = picomatch(manifest.files, { dot: true });
  const entries = git(dir, ['ls-tree', '-r', '-z', manifest.commit])
    .out.toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((line) => {
      const [meta, path] = line.split('\t') as [string, string];
      const [, type, sha] = meta.split(' ') as [string, string, string];
      return { type, sha, path };
    })
    .filter((e) => e.type === 'blob' && isWanted(e.path))
    .sort((a, b) => a.path.localeCompare(b.path));
  const batch = git(dir, ['cat-file', '--batch'], entries.map((e) => e.sha).join('\n') + '\n').out;
  const files: Array<{ path: string; text: string }> = [];
  let at = 0;
  for (const e of entries) {
    const headerEnd = batch.indexOf(10, at);
    const size = Number(batch.subarray(at, headerEnd).toString().split(' ')[2]);
    files.push({ path: e.path, text: batch.subarray(headerEnd + 1, headerEnd + 1 + size).toString('utf8') });
    at = headerEnd + 1 + size + 1;
  }
  return { dir, files };
}

function main(): number {
  const labelled = LabelledCorpus.parse(JSON.parse(readFileSync(join(CORPUS, 'labels.json'), 'utf8')));
  const inputs = labelledInputs(labelled.include);
  const own = score(defaultReport(inputs), labelled.labels);
  const lines = [`Labelled corpus (test/corpus/files, ${own.files} prompt files, default target and settings)`];
  lines.push(...formatScore(own));
  const scored: Score[] = [own];
  let failed = false;

  const manifest = PublicManifest.parse(JSON.parse(readFileSync(join(CORPUS, 'public.json'), 'utf8')));
  const pub = publicInputs(manifest);
  lines.push('');
  if (typeof pub === 'string') lines.push(`Public corpus ${manifest.repo}: skipped — ${pub}.`);
  else {
    lines.push(
      `Public corpus ${manifest.repo} @ ${manifest.commit.slice(0, 7)} (${pub.files.length} files, read from ${pub.dir})`,
    );
    for (const [name, run] of Object.entries(manifest.runs)) {
      const isPrompt = promptFileMatcher(run.include, run.disabledFormats);
      const files = pub.files.filter((f) => isPrompt(f.path));
      const s = score(
        defaultReport(files, run.disabledFormats),
        manifest.labels.filter((l) => l.run === name),
      );
      const share = s.files === 0 ? 0 : s.breakerFiles / s.files;
      const met = share <= GOALS.breakerFileShare;
      failed ||= !met;
      lines.push(
        `  ${name}: ${run.description} — ${s.files} files; cache-breaker warnings in ${s.breakerFiles} ` +
          `(${(100 * share).toFixed(2)}%, goal ≤ ${GOALS.breakerFileShare * 100}%: ${met ? 'met' : 'NOT MET'})`,
        ...formatScore(s).map((l) => `  ${l}`),
      );
      if (run.precisionGoal) scored.push(s);
      else {
        const w = precisionOf([s], 'warning');
        const i = precisionOf([s], 'information');
        lines.push(
          `    precision (measured, not a goal for this run): warnings ${w.correct} of ${w.reported} correct, ` +
            `information ${i.correct} of ${i.reported} correct`,
        );
      }
    }
  }

  const warnings = precisionOf(scored, 'warning');
  const information = precisionOf(scored, 'information');
  failed ||= warnings.reported > 0 && warnings.correct / warnings.reported < GOALS.warning;
  failed ||= information.reported > 0 && information.correct / information.reported < GOALS.information;
  lines.push(
    '',
    `Labelled corpus and the public runs in the goals: warnings ${goalLine(warnings, GOALS.warning)}; information ${goalLine(information, GOALS.information)}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
  return failed ? 1 : 0;
}

if (require.main === module) process.exitCode = main();
