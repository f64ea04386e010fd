import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { countPrompt } from '../../../src/core/count';
import { linearCostModel } from '../../../src/core/findings/costModel';
import { buildReport } from '../../../src/core/findings/report';
import { DEFAULT_FINDING_SETTINGS } from '../../../src/core/findings/settings';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { tokenizerFor } from '../../../src/core/tokenize/models';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { cpuMs as cpuTimeMs } from '../helpers/cpuTime';

/**
 * Issue 16: near-linear growth of `count` and `report` on the worst shapes a prompt file can take.
 * Each shape is built at n and 4n units (the unit drawn by fast-check) and both pipelines must take
 * at most 8× the CPU time at 4n that they take at n: linear gives 4×, n log n a little more, a
 * quadratic path 16×. n starts at the shape's size and doubles until the run at n takes at least
 * 60 ms of CPU, so that timer resolution, a JIT tier-up or one collection are small beside it (CI
 * ran `count` on 2,000 chunks in 10 ms, and 10 ms against 47 ms said nothing about growth).
 * CPU time of the process, the least of three runs each, interleaved, each after a full
 * collection: other processes on a loaded machine change wall time far more than CPU time.
 */

interface Shape {
  name: string;
  /** Units at n before doubling: large enough that the quadratic paths this guards against dominate. */
  n: number;
  unit: fc.Arbitrary<string>;
  file(n: number, unit: string): { path: string; text: string };
}

const word = fc.stringMatching(/^[a-z]{1,8}$/);

const SHAPES: Shape[] = [
  {
    name: 'front-matter keys (.prompty sample)',
    n: 6_000,
    unit: word,
    file: (n, unit) => {
      let text = '---\nmodel: gpt-4o\nsample:\n';
      for (let i = 0; i < n; i++) text += `  ${unit}${i}: v\n`;
      return { path: 'keys.prompty', text: `${text}---\nuser:\nHello {{${unit}1}}\n` };
    },
  },
  {
    name: 'template variables on one line',
    n: 60_000,
    unit: word,
    file: (n, unit) => ({ path: 'vars.prompt', text: `{{${unit}}}`.repeat(n) }),
  },
  {
    name: 'messages (.prompt.yml)',
    n: 3_000,
    unit: word,
    file: (n, unit) => {
      let text = 'model: gpt-4o\nmessages:\n';
      for (let i = 0; i < n; i++)
        text += `  - role: ${i % 2 ? 'assistant' : 'user'}\n    content: "${unit} {{v${i}}}"\n`;
      return { path: 'messages.prompt.yml', text: `${text}testData:\n  - v1: x\n` };
    },
  },
  {
    name: 'retrieved chunks in one region',
    n: 2_000,
    unit: word,
    file: (n, unit) => {
      let text = '<context>\n';
      for (let i = 0; i < n; i++)
        text += `Passage ${i} on ${unit} ${(i * 7).toString(36)} and ${(i * 31).toString(36)}: the same quick brown fox.\n\n`;
      return { path: 'chunks.prompt', text: `${text}</context>\nAnswer from the context.\n` };
    },
  },
  {
    name: 'nested and unclosed blocks',
    n: 30_000,
    unit: fc.constantFrom('context', 'documents', 'search_results', 'chunks'),
    file: (n, tag) => ({
      path: 'nested.prompt',
      text: `${`<${tag}>`.repeat(n)}text${`</${tag}>`.repeat(n / 2)}\n${`<${tag} id="x">`.repeat(n)}`,
    }),
  },
  {
    name: 'chat JSON messages',
    n: 3_000,
    unit: word,
    file: (n, unit) => ({
      path: 'chat.json',
      text: JSON.stringify({
        messages: Array.from({ length: n }, (_, i) => ({
          role: i % 2 ? 'assistant' : 'user',
          content: `${unit} ${i}`,
        })),
      }),
    }),
  },
];

const costModel = linearCostModel({
  label: 'test model',
  cacheRule: { minTokens: 1024, granularity: 128 },
  baseMs: 100,
  msPerToken: 0.1,
  msPerCachedToken: 0.01,
  usdPerMillionInput: 2,
  usdPerMillionCached: 0.5,
});

const PIPELINES: Record<string, (file: { path: string; text: string }) => unknown> = {
  count: ({ path, text }) => {
    const parsed = parsePrompt(path, text);
    return countPrompt(parsed, getTokenizer(tokenizerFor(parsed.settings.model)));
  },
  report: (file) =>
    buildReport([file], { tokenizer: getTokenizer('o200k_base'), costModel, settings: DEFAULT_FINDING_SETTINGS }),
};

// A collection before each run, so that no run pays for the garbage of the one before.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function cpuMs(run: () => unknown): number {
  collect();
  return cpuTimeMs(run);
}

const MIN_RUN_MS = 60;
const GROWTH = 4;
const LIMIT = 8;

/** Least CPU time of three runs at n and at 4n, interleaved so that a slow spell hits both alike. */
function growth(pipeline: (file: { path: string; text: string }) => unknown, shape: Shape, unit: string) {
  pipeline(shape.file(Math.ceil(shape.n / 10), unit)); // compiled before measuring
  let size = shape.n;
  while (size < shape.n * 16 && cpuMs(() => pipeline(shape.file(size, unit))) < MIN_RUN_MS) size *= 2;
  const small = shape.file(size, unit);
  const large = shape.file(GROWTH * size, unit);
  let n = Infinity;
  let times = Infinity;
  for (let i = 0; i < 3; i++) {
    n = Math.min(
      n,
      cpuMs(() => pipeline(small)),
    );
    times = Math.min(
      times,
      cpuMs(() => pipeline(large)),
    );
  }
  return { size, n, times, ratio: times / Math.max(n, 1) };
}

describe('growth on worst-case prompt shapes (issue 16)', function () {
  this.timeout(240_000);
  for (const shape of SHAPES)
    for (const [name, pipeline] of Object.entries(PIPELINES))
      it(`${name}: ${shape.name} at 4n takes at most 8× the time at n`, () => {
        fc.assert(
          fc.property(shape.unit, (unit) => {
            const { size, n, times, ratio } = growth(pipeline, shape, unit);
            assert.ok(
              ratio <= LIMIT,
              `${shape.name}, unit ${JSON.stringify(unit)}: ${n.toFixed(0)} ms at n = ${size}, ${times.toFixed(0)} ms at ${GROWTH}n (${ratio.toFixed(2)}×)`,
            );
          }),
          { seed: 16, numRuns: 1 },
        );
      });
});
