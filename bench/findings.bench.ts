// Workspace findings at scale: 2,000 prompt files of ~5,000 tokens (40 shared system prompts of
// ~3,000 tokens, a unique ~2,000-token user part each; every tenth file starts with a date).
// BENCH_FILES=200 npm run bench -- findings runs a smaller workspace.
import { loadTables, parseTargetId, resolveTarget, DEFAULT_TARGET_IDS } from '../src/core/estimate';
import { findingTarget } from '../src/core/findings/targets';
import { PrefixCacheAnalyser } from '../src/core/findings/prefixCache';
import { analyseRag } from '../src/core/findings/rag';
import { DEFAULT_FINDING_SETTINGS } from '../src/core/findings/settings';
import { parsePrompt } from '../src/core/prompt/parse';
import { getTokenizer } from '../src/core/tokenize/registry';

const FILES = Number(process.env.BENCH_FILES ?? 2000);
const SYSTEMS = 40;

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

export async function run(): Promise<void> {
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

  const costModel = findingTarget(resolveTarget(parseTargetId(DEFAULT_TARGET_IDS[0]), loadTables().tables)).model;
  const analyser = new PrefixCacheAnalyser({
    tokenizer,
    costModel,
    settings: DEFAULT_FINDING_SETTINGS.cache,
    rag: DEFAULT_FINDING_SETTINGS.rag,
  });
  const analysis = performance.now();
  let start = performance.now();
  for (const f of files) analyser.update(f.path, f.text, parsePrompt(f.path, f.text));
  const total = files.reduce((n, f) => n + (analyser.promptTokens(f.path) ?? 0), 0);
  console.log(
    `files: ${FILES}, request tokens: ${total.toLocaleString('en-US')} (${Math.round(total / FILES).toLocaleString('en-US')} per file)`,
  );
  console.log(`parse + tokenise + index all files: ${ms(start)}`);

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
  console.log(`findings for every file (${findings}): ${ms(start)}`);

  const changed = files[FILES / 2 + 1] as { path: string; text: string };
  const edited = changed.text.replace('user:\n', 'user:\nPlease be brief. ');
  start = performance.now();
  analyser.update(changed.path, edited, parsePrompt(changed.path, edited));
  analyser.groupOf(changed.path);
  analyser.findingsFor(changed.path);
  console.log(`re-analyse after one file changes (update + its group + its findings): ${ms(start)}`);
}
