import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import hardwareFile from '../../../../data/hardware.json';
import { loadTables, loadTablesSliced, parseTableText } from '../../../../src/core/estimate';
import { clone } from './helpers';

const ISSUE_MODELS = [
  'llama-3.1-8b',
  'llama-3.1-70b',
  'llama-3.1-405b',
  'llama-3.3-70b',
  'mistral-7b',
  'mixtral-8x7b',
  'qwen2.5-7b',
  'qwen2.5-72b',
  'qwen3-32b',
  'qwen3-235b-a22b',
  'deepseek-v3',
  'gpt-oss-20b',
  'gpt-oss-120b',
  'gemma-3-27b',
];
const ISSUE_HARDWARE = [
  // #14 adds consumer, workstation and Apple parts, GH200, H20, MI325X and a sizable CPU.
  'rtx-4090',
  'rtx-3090',
  'rtx-a6000',
  'rtx-6000-ada',
  'l40',
  'a10',
  'gh200',
  'h20',
  'mi325x',
  'm2-max',
  'm2-ultra',
  'm3-max',
  'm3-ultra',
  'm4-max',
  'a10g',
  'l4',
  'l40s',
  'a100-40gb',
  'a100-80gb',
  'h100-sxm',
  'h100-pcie',
  'h200',
  'b200',
  'mi300x',
  'cpu',
];
const ISSUE_PROVIDERS = ['openai', 'anthropic', 'google', 'groq', 'together', 'fireworks', 'deepseek', 'mistral'];
const h100 = () => clone(hardwareFile.hardware.find((h) => h.id === 'h100-sxm')!);

describe('estimation tables', () => {
  it('load the built-in rows without problems and cover every id the issue lists', () => {
    const { tables, problems } = loadTables();
    assert.deepEqual(problems, []);
    for (const id of ISSUE_MODELS) assert.ok(tables.models.has(id), id);
    for (const id of ISSUE_HARDWARE) assert.ok(tables.hardware.has(id), id);
    const providers = new Set([...tables.providers.values()].map((p) => p.provider));
    for (const id of ISSUE_PROVIDERS) assert.ok(providers.has(id), id);
  });

  it('cite a source and date on every row, and a dated source on every price given', () => {
    const { tables } = loadTables();
    for (const row of [
      ...tables.models.values(),
      ...tables.hardware.values(),
      ...tables.providers.values(),
      ...tables.engines.values(),
      ...tables.bands.values(),
    ]) {
      assert.ok(row.source.length > 0 && /^\d{4}/.test(row.date), row.id);
    }
    for (const h of tables.hardware.values())
      if (h.usdPerHour) assert.ok(h.usdPerHour.source && h.usdPerHour.date, h.id);
    // Prices cite public names and URLs, which users can follow (not the team's internal reference files).
    for (const h of tables.hardware.values())
      if (h.usdPerHour) assert.doesNotMatch(h.usdPerHour.source, /gpu-prices\.md|^shared /, h.id);
  });

  it("cites sources by public name or URL in every shipped table, never by the team's internal reference keys", () => {
    const dir = join(__dirname, '../../../../data');
    for (const file of readdirSync(dir).filter((f) => /\.(json|ya?ml)$/.test(f))) {
      const lines = readFileSync(join(dir, file), 'utf8').split('\n');
      const internal = lines
        .map((line, i) => `${file}:${i + 1}: ${line.trim()}`)
        .filter((line) => /\breference [A-Z]\d+\b|reference-data\.md|gpu-prices\.md|shared reference/.test(line));
      assert.deepEqual(internal, [], `internal references in ${file}`);
    }
  });

  it('lets a later source override a built-in row by id and add new ones', () => {
    const faster = { ...h100(), memoryBandwidth: 9e12 };
    const extra = { ...h100(), id: 'my-gpu' };
    const { tables, problems } = loadTables([{ name: 'settings', data: { hardware: [faster, extra] } }]);
    assert.deepEqual(problems, []);
    assert.equal(tables.hardware.get('h100-sxm')?.memoryBandwidth, 9e12);
    assert.ok(tables.hardware.has('my-gpu'));
  });

  const badRows: Array<[string, (row: ReturnType<typeof h100>) => unknown, RegExp, string]> = [
    [
      'NaN FLOP/s',
      (r) => ({ ...r, flops: { ...r.flops, bf16: Number.NaN } }),
      /^hardware\[0\]\.flops\.bf16$/,
      'number',
    ],
    ['zero FLOP/s', (r) => ({ ...r, flops: { ...r.flops, bf16: 0 } }), /^hardware\[0\]\.flops\.bf16$/, '>'],
    ['negative bandwidth', (r) => ({ ...r, memoryBandwidth: -1 }), /^hardware\[0\]\.memoryBandwidth$/, '>'],
    [
      'a string where a number belongs',
      (r) => ({ ...r, memoryBytes: '80GB' }),
      /^hardware\[0\]\.memoryBytes$/,
      'number',
    ],
    ['a missing source', (r) => ({ ...r, source: undefined }), /^hardware\[0\]\.source$/, 'string'],
    [
      'Infinity',
      (r) => ({ ...r, interconnectBandwidth: Number.POSITIVE_INFINITY }),
      /^hardware\[0\]\.interconnectBandwidth$/,
      '',
    ],
  ];
  for (const [what, mutate, path, words] of badRows) {
    it(`reports ${what} with the field's path, skips only that row and keeps the built-in one`, () => {
      const { tables, problems } = loadTables([
        { name: 'my.json', data: { hardware: [mutate(h100()), { ...h100(), id: 'ok-gpu' }] } },
      ]);
      assert.equal(problems.length, 1, JSON.stringify(problems));
      const [problem] = problems;
      assert.equal(problem?.source, 'my.json');
      assert.equal(problem?.id, 'h100-sxm');
      assert.match(problem?.path ?? '', path);
      assert.ok(problem?.message.toLowerCase().includes(words), problem?.message);
      assert.equal(tables.hardware.get('h100-sxm')?.memoryBandwidth, h100().memoryBandwidth);
      assert.ok(tables.hardware.has('ok-gpu'));
    });
  }

  it('names an unknown key and the closest valid one instead of ignoring it (flops.FP8)', () => {
    const { tables, problems } = loadTables([
      { name: 'my.json', data: { hardware: [{ ...h100(), id: 'x-gpu', flops: { bf16: 1e15, FP8: 2e15 } }] } },
    ]);
    assert.equal(tables.hardware.has('x-gpu'), false);
    assert.equal(problems[0]?.path, 'hardware[0].flops');
    assert.equal(problems[0]?.message, "unknown key 'FP8'; did you mean 'fp8'?");
  });

  it('rejects unknown keys at every level: a row, a nested object, and the file itself', () => {
    const cases: Array<[unknown, string, RegExp]> = [
      [
        { hardware: [{ ...h100(), memoryBandwith: 1 }] },
        'hardware[0]',
        /'memoryBandwith'; did you mean 'memoryBandwidth'/,
      ],
      [{ hardwares: [] }, '(root)', /'hardwares'; did you mean 'hardware'/],
      [
        { engines: [{ id: 'e', overheadMs: { engine: 1, sever: 2 } }] },
        'engines[0].overheadMs',
        /'sever'; did you mean 'server'/,
      ],
    ];
    for (const [data, path, message] of cases) {
      const problem = loadTables([{ name: 't', data }]).problems.find((p) => p.path === path);
      assert.match(problem?.message ?? '', message, JSON.stringify(data));
    }
  });

  it('needs no price on a row used only for latency, and no interconnect for one device', () => {
    const { usdPerHour: _price, interconnectBandwidth: _link, ...bare } = h100();
    const { tables, problems } = loadTables([{ name: 't', data: { hardware: [{ ...bare, id: 'lab-gpu' }] } }]);
    assert.deepEqual(problems, []);
    assert.equal(tables.hardware.get('lab-gpu')?.usdPerHour, undefined);
  });

  it('defaults activeParamsB to totalParamsB for a dense model, and requires it for a mixture of experts', () => {
    const model = {
      id: 'dense-7b',
      source: 's',
      date: '2026',
      tokenizer: 'llama3',
      totalParamsB: 7,
      architecture: { layers: 32, hiddenSize: 4096, heads: 32, kvHeads: 8, headDim: 128 },
      contextWindow: 8192,
      precisions: ['bf16'],
    };
    const moe = { ...model, id: 'moe', architecture: { ...model.architecture, moe: { experts: 8, activeExperts: 2 } } };
    const { tables, problems } = loadTables([{ name: 't', data: { models: [model, moe] } }]);
    assert.equal(tables.models.get('dense-7b')?.activeParamsB, 7);
    assert.equal(tables.models.has('moe'), false);
    assert.match(problems[0]?.message ?? '', /must give activeParamsB/);
  });

  it('sizes a CPU row from cores × GFLOP/s per core', () => {
    const { tables, problems } = loadTables([
      {
        name: 't',
        data: {
          hardware: [
            {
              id: 'my-epyc',
              source: 'me',
              date: '2026',
              vendor: 'cpu',
              family: 'cpu',
              cpu: { cores: 64, gflopsPerCore: 150 },
              memoryBytes: 768e9,
              memoryBandwidth: 460e9,
            },
          ],
        },
      },
    ]);
    assert.deepEqual(problems, []);
    assert.equal(tables.hardware.get('my-epyc')?.flops.bf16, 64 * 150e9);
    assert.equal(tables.hardware.get('my-epyc')?.gpusPerNode, 8);
  });

  it('remembers why a row was skipped, for the error of a target that names it', () => {
    const { tables } = loadTables([
      { name: 'my.json', data: { hardware: [{ ...h100(), id: 'lab-gpu', flops: { bf16: 1e15, FP8: 2e15 } }] } },
    ]);
    assert.match(tables.skipped.get('hardware:lab-gpu') ?? '', /my\.json: hardware\[0\]\.flops: unknown key 'FP8'/);
  });

  it('drops an engine that borrows efficiency from an engine without its own', () => {
    const { tables, problems } = loadTables([
      {
        name: 't',
        data: {
          engines: [
            {
              id: 'my-fork',
              name: 'My fork',
              source: 's',
              date: '2026',
              versions: '1',
              class: 'server',
              overheadMs: { engine: 1, server: 1 },
              collectiveUs: 10,
              efficiencyFrom: 'ollama',
            },
          ],
        },
      },
    ]);
    assert.equal(tables.engines.has('my-fork'), false);
    assert.match(problems[0]?.message ?? '', /'ollama' is not an engine with its own efficiency/);
  });

  it('rejects a model whose active params exceed its total, and a provider id without a slash', () => {
    const { problems } = loadTables([
      {
        name: 's',
        data: {
          models: [
            {
              id: 'm',
              source: 's',
              date: '2026',
              tokenizer: 'x',
              totalParamsB: 1,
              activeParamsB: 2,
              architecture: { layers: 1, hiddenSize: 1, heads: 1, kvHeads: 1, headDim: 1 },
              contextWindow: 1,
              precisions: ['bf16'],
            },
          ],
        },
      },
      { name: 's', data: { providers: [{ id: 'gpt-4o' }] } },
    ]);
    assert.deepEqual(problems.map((p) => p.path).slice(0, 2), ['models[0].activeParamsB', 'providers[0].id']);
    assert.match(problems[1]?.message ?? '', /provider\/model/);
  });

  it('reports a table that is not an object of lists, and text that is not JSON, without throwing', () => {
    assert.equal(loadTables([{ name: 'bad', data: { hardware: 'h100' } }]).problems[0]?.path, 'hardware');
    assert.equal(loadTables([{ name: 'bad', data: 42 }]).problems[0]?.path, '(root)');
    const parsed = parseTableText('t.json', '{ "hardware": [ }');
    assert.equal(parsed.source, undefined);
    assert.match(parsed.problem?.message ?? '', /not valid JSON/);
  });

  it('sliced loading gives the same tables and problems, and lets other work run in between', async () => {
    const sources = [
      {
        name: 's',
        data: {
          hardware: [
            { ...h100(), id: 'x-gpu', flops: { bf16: 1, FP8: 2 } },
            { ...h100(), id: 'h100-clone' },
          ],
        },
      },
      { name: 'bad', data: 42 },
    ];
    let ranBetween = false;
    setImmediate(() => (ranBetween = true));
    const sliced = await loadTablesSliced(sources, 0);
    assert.equal(ranBetween, true, 'the event loop ran before the load finished');
    assert.deepEqual(sliced, loadTables(sources));
    assert.equal(sliced.tables.hardware.has('h100-clone'), true);
  });
});
