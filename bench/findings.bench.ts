// Workspace findings at scale: 2,000 prompt files of ~5,000 tokens (40 shared system prompts of
// ~3,000 tokens, a unique ~2,000-token user part each; every tenth file starts with a date).
// BENCH_FILES=200 npm run bench -- findings runs a smaller workspace; `workspace` runs 10,000 files.
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadTables, parseTargetId, resolveTarget, DEFAULT_TARGET_IDS } from '../src/core/estimate';
import { findingTarget } from '../src/core/findings/targets';
import { PrefixCacheAnalyser, updateInSlices } from '../src/core/findings/prefixCache';
import { analyseRag } from '../src/core/findings/rag';
import { DEFAULT_FINDING_SETTINGS } from '../src/core/findings/settings';
import { parsePrompt } from '../src/core/prompt/parse';
import { getTokenizer } from '../src/core/tokenize/registry';

const SYSTEMS = 40;
/** The slice the editor's first scan yields after (updateInSlices' default). */
const SLICE_MS = 20;

function generator(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff;
    return (s >>> 8) % n;
  };
}

const VOCABULARY = (
  'the customer order refund policy answer question support agent team product shipping delivery account ' +
  'invoice warranty return item price payment card address email phone store online service issue case ' +
  'always never only must should can will may please thank explain confirm check offer note include cite ' +
  'document section step rule limit approve escalate summary reply tone brief clear friendly precise days ' +
  'within after before about from with without for to of in on at by and or but if when while because so'
).split(' ');

/** English-like text, a sentence per line, as prompts are written. */
function prose(random: (n: number) => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    const w = VOCABULARY[random(VOCABULARY.length)] as string;
    out.push(random(12) === 0 ? `${w}.\n${random(5) === 0 ? `Rule ${random(500)}:` : 'Then'}` : w);
  }
  return out.join(' ');
}

function ms(start: number): string {
  return `${(performance.now() - start).toFixed(0)} ms`;
}

/** Issue #19 goal 4's targets, printed beside the figures when asked for. */
export interface WorkspaceTargets {
  analysisMs: number;
  blockedMs: number;
  reanalysisMs: number;
}

function load(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');
}

function target(limit: number | undefined, value: number): string {
  return limit === undefined ? '' : `; target ≤ ${limit} ms: ${value <= limit ? 'met' : 'NOT met'}`;
}

export function run(): Promise<void> {
  return analyseWorkspace(Number(process.env.BENCH_FILES ?? 2000));
}

/**
 * The worker's analysis of a workspace of `FILES` generated prompt files: index (parse, tokenise,
 * fingerprint) fed in slices as the first scan is, cache groups, findings for every file, then
 * re-analysis after one edit. Wall-clock figures with the load average next to them.
 */
export async function analyseWorkspace(FILES: number, targets?: WorkspaceTargets): Promise<void> {
  console.log(`load average (1/5/15 min) at start: ${load()}`);
  const tokenizer = getTokenizer('o200k_base');
  const random = generator(42);
  const systems = Array.from({ length: SYSTEMS }, () => prose(random, 2450));
  const files = Array.from({ length: FILES }, (_, i) => {
    const top = i % 10 === 0 ? `Today is 2025-03-${String((i % 28) + 1).padStart(2, '0')}.\n` : '';
    return {
      path: `prompts/p${i}.prompt`,
      text: `system:\n${top}${systems[i % SYSTEMS]}\nuser:\n${prose(random, 1650)}\n`,
    };
  });

  const costModel = findingTarget(resolveTarget(parseTargetId(DEFAULT_TARGET_IDS[0]), loadTables().tables), {
    concurrency: 1,
    outputTokens: 0,
  }).model;
  const analyser = new PrefixCacheAnalyser({
    tokenizer,
    costModel,
    settings: DEFAULT_FINDING_SETTINGS.cache,
    rag: DEFAULT_FINDING_SETTINGS.rag,
  });
  const analysis = performance.now();
  let start = performance.now();
  // The longest stretch the loop could not answer anything else (a hover, a count) while indexing.
  const blocked = monitorEventLoopDelay({ resolution: 1 });
  blocked.enable();
  await updateInSlices(
    analyser,
    (function* () {
      // Parsed one at a time, inside the slices, as the scan does.
      for (const f of files) yield { file: f.path, text: f.text, parsed: parsePrompt(f.path, f.text) };
    })(),
    SLICE_MS,
  );
  blocked.disable();
  const total = files.reduce((n, f) => n + (analyser.promptTokens(f.path) ?? 0), 0);
  console.log(
    `files: ${FILES}, request tokens: ${total.toLocaleString('en-US')} (${Math.round(total / FILES).toLocaleString('en-US')} per file)`,
  );
  console.log(`parse + tokenise + index all files, in ${SLICE_MS} ms slices: ${ms(start)}`);
  const longest = blocked.max / 1e6;
  console.log(
    `longest the event loop was held while indexing: ${longest.toFixed(1)} ms${target(targets?.blockedMs, longest)}`,
  );

  start = performance.now();
  const groups = analyser.groups();
  console.log(`cache groups (${groups.length}, with prefix-end positions): ${ms(start)}`);
  console.log(`workspace analysis in total (index + groups): ${ms(analysis)}`);

  start = performance.now();
  let findings = 0;
  for (const f of files) {
    findings += analyser.findingsFor(f.path).length;
    const parsed = parsePrompt(f.path, f.text);
    findings += analyseRag({
      file: f.path,
      text: f.text,
      parsed,
      promptTokens: analyser.promptTokens(f.path) ?? 0,
      tokenizer,
      costModel,
      settings: DEFAULT_FINDING_SETTINGS.rag,
    }).findings.length;
  }
  console.log(`findings for every file (${findings}), in one piece: ${ms(start)}`);
  const analysed = performance.now() - analysis;
  console.log(
    `index + groups + findings for every file: ${analysed.toFixed(0)} ms${target(targets?.analysisMs, analysed)}`,
  );

  const changed = files[FILES / 2 + 1] as { path: string; text: string };
  const edited = changed.text.replace('user:\n', 'user:\nPlease be brief. ');
  start = performance.now();
  analyser.update(changed.path, edited, parsePrompt(changed.path, edited));
  analyser.groupOf(changed.path);
  analyser.findingsFor(changed.path);
  const reanalysis = performance.now() - start;
  console.log(
    `re-analyse after one file changes (update + its group + its findings): ${reanalysis.toFixed(1)} ms${target(targets?.reanalysisMs, reanalysis)}`,
  );
  console.log(`load average at the end: ${load()}`);
}
