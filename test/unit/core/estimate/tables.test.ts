import assert from 'node:assert/strict';
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

  it('cite a source and date on every row, and a dated price on every GPU', () => {
    const { tables } = loadTables();
    for (const row of [
      ...tables.models.values(),
      ...tables.hardware.values(),
      ...tables.providers.values(),
      ...tables.classes.values(),
    ]) {
      assert.ok(row.source.length > 0 && /^\d{4}/.test(row.date), row.id);
    }
    for (const h of tables.hardware.values()) assert.ok(h.usdPerHour.source && h.usdPerHour.date, h.id);
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

  it('rejects a hardware row naming an unknown efficiency class', () => {
    const { tables, problems } = loadTables([
      { name: 's', data: { hardware: [{ ...h100(), id: 'x-gpu', class: 'nvidia-hoper' }] } },
    ]);
    assert.equal(tables.hardware.has('x-gpu'), false);
    assert.match(problems[0]?.message ?? '', /unknown efficiency class 'nvidia-hoper'/);
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
            { ...h100(), id: 'x-gpu', class: 'nvidia-hoper' },
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
