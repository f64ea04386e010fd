// Tokenizer speed (#19 goal 1) next to the other JS tokenizers for the same vocabularies, all from one
// run, with the machine's load average. Times are this process's CPU time (process.cpuUsage): on the
// shared 2-core machine wall time moves with other jobs far more than CPU time does. Each figure is
// the median of ROUNDS rounds; a round runs every contender once, in a rotating order, on a fresh
// copy of the text and a fresh instance (cold caches: gpt-tokenizer's module-wide merge cache is
// cleared first). Targets: ours with the chunk index ≥ 1.0× gpt-tokenizer's countTokens and encode;
// update after a one-character edit ≤ 2 ms median on 1 MB, equal to a fresh count.
import { Tiktoken as JsTiktoken } from 'js-tiktoken/lite';
import jsO200k from 'js-tiktoken/ranks/o200k_base';
import jsCl100k from 'js-tiktoken/ranks/cl100k_base';
import { BytePairEncodingCore } from 'gpt-tokenizer/BytePairEncodingCore';
import { CL100K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import * as gptCl100k from 'gpt-tokenizer/encoding/cl100k_base';
import * as gptO200k from 'gpt-tokenizer/encoding/o200k_base';
import { get_encoding } from 'tiktoken';
import { PromptCounter } from '../src/core/promptCounter';
import { IncrementalCounter } from '../src/core/tokenize/incremental';
import { llama3Ranks } from '../src/core/tokenize/llama3';
import { createTokenizer } from '../src/core/tokenize/registry';
import { countSliced } from '../src/core/tokenize/sliced';
import type { ExactTokenizerId } from '../src/core/tokenize/types';
import { DIFFERENTIAL_PAIRS } from '../test/unit/helpers/tokenizerReferences';
import { mixedCorpus } from './corpus';
import { cpuTicks, formatSteal, loadAverage, stealShare } from './machine';

const MB = 1_000_000;
/** The tokenizers of #19 goal 1: the ones other JS libraries also implement. */
const BENCHED = ['o200k_base', 'cl100k_base', 'llama3'] as const satisfies readonly ExactTokenizerId[];
type BenchedId = (typeof BENCHED)[number];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * A name and, once per round and untimed, a fresh counter (a new instance, or the module's with its
 * cache cleared) whose one call on the text is timed.
 */
type Contender = [name: string, prepare: () => (text: string) => number];

interface Row {
  name: string;
  ms: number[];
  tokens: number;
}

/** Every contender once per round, in rotating order; CPU ms per call. */
function measure(text: string, contenders: Contender[]): Row[] {
  const rows = contenders.map(([name]) => ({ name, ms: [] as number[], tokens: -1 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (round + k) % contenders.length;
      // The same characters in a new string object, so nothing is cached per string.
      const copy = ` ${text}`.slice(1);
      const count = (contenders[i] as Contender)[1]();
      const start = cpuMs();
      const tokens = count(copy);
      (rows[i] as Row).ms.push(cpuMs() - start);
      (rows[i] as Row).tokens = tokens;
    }
  }
  return rows;
}

/**
 * The alternatives for each exact tokenizer. gpt-tokenizer has no Llama 3: its engine with Llama 3's
 * ranks (what we ran until 0.1.1) stands in for it.
 */
function alternatives(id: BenchedId): Contender[] {
  if (id === 'llama3') {
    const ranks = llama3Ranks(
      require('llama3-tokenizer-js/bundle/commonjs-llama3-tokenizer-with-baked-data.cjs').llama3Tokenizer,
    );
    const fresh = (): BytePairEncodingCore =>
      new BytePairEncodingCore({
        bytePairRankDecoder: ranks,
        tokenSplitRegex: CL100K_TOKEN_SPLIT_REGEX,
        specialTokensEncoder: new Map(),
      });
    const pairs = DIFFERENTIAL_PAIRS.filter((p) => p.ours === 'llama3').map((p) => p.reference());
    return [
      [
        'gpt-tokenizer engine, Llama 3 ranks: countNative',
        () => {
          const core = fresh();
          return (t) => core.countNative(t);
        },
      ],
      [
        'gpt-tokenizer engine, Llama 3 ranks: encodeNative',
        () => {
          const core = fresh();
          return (t) => core.encodeNative(t).length;
        },
      ],
      ...pairs.map((r): Contender => [r.name, () => (t) => r.encode(t).length]),
    ];
  }
  const gpt = id === 'o200k_base' ? gptO200k : gptCl100k;
  const wasm = get_encoding(id);
  const js = new JsTiktoken(id === 'o200k_base' ? jsO200k : jsCl100k);
  return [
    ['gpt-tokenizer countTokens', () => (gpt.clearMergeCache(), (t) => gpt.countTokens(t))],
    ['gpt-tokenizer encode', () => (gpt.clearMergeCache(), (t) => gpt.encode(t).length)],
    ['tiktoken (WASM) encode_ordinary', () => (t) => wasm.encode_ordinary(t).length],
    ['js-tiktoken encode', () => (t) => js.encode(t, [], []).length],
  ];
}

export async function run(): Promise<void> {
  const ticks = cpuTicks();
  const corpus = mixedCorpus(MB);
  console.log(
    `corpus: ${(corpus.length / MB).toFixed(2)}M UTF-16 units of prose, code, CJK and JSON; ${ROUNDS} rounds; load average (1/5/15 min) at start: ${loadAverage(' / ')}\n`,
  );
  console.log('Cold count of 1 MB, CPU ms (median of the rounds; lower is faster) and MB/s:\n');
  console.log('| tokenizer | implementation | CPU ms | MB/s | ours with index ÷ it | same count |');
  console.log('|---|---|---:|---:|---:|---|');
  const warmUp = corpus.slice(0, 50_000);
  for (const id of BENCHED) {
    const contenders: Contender[] = [
      ['ours: count', () => createTokenizer(id).count],
      [
        'ours: count + chunk index (IncrementalCounter)',
        () => {
          const tokenizer = createTokenizer(id);
          return (t) => new IncrementalCounter(tokenizer, t).count;
        },
      ],
      ...alternatives(id),
    ];
    // Let the JIT compile every contender's hot paths before anything is timed.
    for (const [, prepare] of contenders) prepare()(warmUp);
    const rows = measure(corpus, contenders);
    const ours = rows[1] as Row;
    for (const row of rows) {
      const ms = median(row.ms);
      const ratio = row === ours || row === rows[0] ? '' : `${(ms / median(ours.ms)).toFixed(2)}×`;
      const same = row.tokens === ours.tokens ? 'yes' : `NO (${row.tokens} vs ${ours.tokens})`;
      console.log(
        `| ${id} | ${row.name} | ${ms.toFixed(0)} | ${(corpus.length / MB / (ms / 1000)).toFixed(1)} | ${ratio} | ${same} |`,
      );
    }
  }
  console.log(`\nload average after the cold counts: ${loadAverage(' / ')}`);

  await incremental(corpus);
  console.log(
    `\nload average at the end: ${loadAverage(' / ')}; ${formatSteal(stealShare(ticks, cpuTicks()))} over the bench`,
  );
}

/** Wall ms of each of 100 one-character edits of `text` through `documents` (after its first count). */
async function perKeystroke(documents: PromptCounter, text: string, model?: string): Promise<number[]> {
  const input = { key: 'doc', fileName: 'big.prompt', ...(model ? { model } : {}) };
  await documents.count({ ...input, text, version: 0 });
  const times: number[] = [];
  for (let version = 1; version <= 100; version++) {
    const offset = (version * 7919) % text.length;
    // A new flat string, as the editor's text reaches the worker (a concatenation would be flattened
    // inside the timed call).
    text = Buffer.from(`${text.slice(0, offset)}y${text.slice(offset)}`, 'utf16le').toString('utf16le');
    const start = performance.now();
    await documents.count({ ...input, text, version, edits: [{ offset, removed: 0, inserted: 'y' }] });
    times.push(performance.now() - start);
  }
  return times;
}

/** What the editor does with a 1 MB prompt: first count with the chunk index, then one edit at a time. */
async function incremental(corpus: string): Promise<void> {
  const tokenizer = createTokenizer('o200k_base');
  const counter = new IncrementalCounter(tokenizer, corpus);
  const updates: number[] = [];
  const updatesCpu: number[] = [];
  let seed = 1;
  for (let i = 0; i < 400; i++) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    const offset = seed % counter.length;
    const cpu = cpuMs();
    const start = performance.now();
    counter.apply({ offset, removed: i % 2, inserted: i % 2 ? '' : 'x' });
    updates.push(performance.now() - start);
    updatesCpu.push(cpuMs() - cpu);
  }
  const fresh = createTokenizer('o200k_base').count(counter.currentText);
  // What an editor integration runs per keystroke: re-parse plus incremental count, on a plain prompt and on the
  // default primary target's count of a chat (Llama 3.1 70B: the message rendered through its chat template).
  const plainKeystroke = await perKeystroke(new PromptCounter({ tokenizer: 'o200k_base' }), corpus);
  const templateKeystroke = await perKeystroke(
    new PromptCounter({ tokenizer: 'llama3' }),
    `system:\nAnswer from the context below.\nuser:\n${corpus}`,
    'llama-3.1-70b',
  );
  const sliced = await countSliced(corpus, tokenizer);
  const p90 = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)] ?? NaN;
  console.log(`\no200k_base, 1 MB, incremental:`);
  console.log(
    `- update after a one-character edit (400 edits): median ${median(updates).toFixed(2)} ms wall (CPU ${median(updatesCpu).toFixed(2)} ms), p90 ${p90(updates).toFixed(2)} ms, max ${Math.max(...updates).toFixed(1)} ms; target median ≤ 2 ms; equal to a fresh count: ${counter.count === fresh ? 'yes' : 'NO'}`,
  );
  console.log(
    `- PromptCounter (re-parse + incremental count) per keystroke: median ${median(plainKeystroke).toFixed(2)} ms wall over 100 edits; ` +
      `a system + 1 MB user chat counted as Llama 3.1 70B's template renders it (llama3): median ${median(templateKeystroke).toFixed(2)} ms`,
  );
  console.log(
    `- sliced first count: longest blocking slice ${sliced.longestSliceMs.toFixed(1)} ms (target ≤ 50); same count: ${sliced.tokens === tokenizer.count(corpus) ? 'yes' : 'NO'}`,
  );
  // Harder shapes: one 1 MB line of minified JSON (cuts only after letters), and 1 MB of digits
  // and spaces, which has no safe cut at all and so is counted in one slice.
  const minified = JSON.stringify(
    Array.from({ length: 40_000 }, (_, i) => ({ id: i, name: `item-${i}`, ok: i % 2 === 0 })),
  ).slice(0, MB);
  const digits = '1234 5678 '.repeat(MB / 10);
  for (const [label, shape] of [
    ['minified JSON, one line', minified],
    ['digits and spaces only', digits],
  ] as const) {
    const result = await countSliced(shape, tokenizer);
    console.log(`- ${label}: longest blocking slice ${result.longestSliceMs.toFixed(1)} ms`);
  }
}
