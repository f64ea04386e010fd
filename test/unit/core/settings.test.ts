import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { loadTables } from '../../../src/core/estimate';
import { describeProblem, keepValid } from '../../../src/core/settings/keepValid';
import {
  RESTRICTED_SETTINGS,
  parseSettings,
  settingKeys,
  settingSchema,
  valueAt,
} from '../../../src/core/settings/schema';
import { configuredTargets } from '../../../src/core/settings/targets';

type Json = Record<string, unknown>;
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The parts of a JSON Schema the contract covers: types, limits, enums, item and property schemas. Spellings that
 * mean the same are made one: `anyOf` of a type and null, an integer's exclusive minimum, the safe-integer bounds.
 */
function contract(schema: Json): Json {
  if (Array.isArray(schema.anyOf)) {
    const members = (schema.anyOf as Json[]).map(contract);
    const merged: Json = Object.assign({}, ...members);
    merged.type = members.flatMap((m) => m.type as string[]).sort();
    return merged;
  }
  const out: Json = {};
  const types = schema.type === undefined ? [] : ([] as string[]).concat(schema.type as string).sort();
  if (types.length) out.type = types;
  const integer = types.includes('integer');
  let minimum = schema.minimum as number | undefined;
  let exclusiveMinimum = schema.exclusiveMinimum as number | undefined;
  if (integer && exclusiveMinimum !== undefined) [minimum, exclusiveMinimum] = [exclusiveMinimum + 1, undefined];
  if (minimum !== undefined && minimum !== -SAFE) out.minimum = minimum;
  if (exclusiveMinimum !== undefined) out.exclusiveMinimum = exclusiveMinimum;
  if (schema.maximum !== undefined && schema.maximum !== SAFE) out.maximum = schema.maximum;
  if (schema.enum) out.enum = schema.enum;
  if (schema.default !== undefined) out.default = schema.default;
  if (schema.items) out.items = contract(schema.items as Json);
  if (schema.properties)
    out.properties = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Json>).map(([k, v]) => [k, contract(v)]),
    );
  if (schema.required) out.required = [...(schema.required as string[])].sort();
  const extra = schema.additionalProperties;
  if (extra && typeof extra === 'object' && Object.keys(extra).length > 0)
    out.additionalProperties = contract(extra as Json);
  return out;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Json> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
};
const contributed = manifest.contributes.configuration.properties;

describe('settings: one schema for every promptLens.* key', () => {
  it("package.json's restrictedConfigurations are the restricted settings, and each is a real key (issue 16)", () => {
    const restricted = RESTRICTED_SETTINGS.map((k) => `promptLens.${k}`);
    assert.deepEqual([...manifest.capabilities.untrustedWorkspaces.restrictedConfigurations].sort(), restricted.sort());
    for (const key of restricted) assert.ok(key in contributed, `${key} is contributed`);
    for (const key of [
      'include',
      'variablePatterns',
      'maxFileBytes',
      'rag.pattern',
      'rag.slotPattern',
      'cache.dynamicPatterns',
    ])
      assert.ok((RESTRICTED_SETTINGS as readonly string[]).includes(key), `${key} is restricted`);
  });

  it('package.json contributes exactly the keys the schema has', () => {
    assert.deepEqual(
      Object.keys(contributed).sort(),
      settingKeys()
        .map((k) => `promptLens.${k}`)
        .sort(),
    );
  });

  for (const key of settingKeys()) {
    it(`promptLens.${key}: package.json says what the schema says (type, default, limits, enum, items)`, () => {
      const schema = settingSchema(key);
      const fromZod = contract(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json);
      // The default is what parsing "unset" gives (JSON Schema output drops some defaults beside transforms).
      const parsedDefault = schema.safeParse(undefined);
      delete fromZod.default;
      if (parsedDefault.success && parsedDefault.data !== undefined) fromZod.default = parsedDefault.data;
      assert.deepEqual(contract(contributed[`promptLens.${key}`]!), fromZod);
    });
  }
});

describe('settings: read from one inspect of the whole section (valueAt)', () => {
  it("finds each dotted key in a scope's tree of values, and nothing where the scope set nothing", () => {
    // As VS Code inspects `promptLens` at one scope: only what that scope set, dotted keys as nested objects.
    const tree = {
      targets: ['openai/gpt-4o'],
      benchmark: { requests: 6, concurrency: [1, 2] },
      rag: { tags: [] },
      hover: { enabled: false },
      models: [{ id: 'x' }],
    };
    const values = new Map(
      settingKeys().flatMap((k) => (valueAt(tree, k) === undefined ? [] : [[k, valueAt(tree, k)]])),
    );
    assert.deepEqual(
      values,
      new Map<string, unknown>([
        ['targets', ['openai/gpt-4o']],
        ['hover.enabled', false],
        ['rag.tags', []],
        ['benchmark.concurrency', [1, 2]],
        ['benchmark.requests', 6],
        ['models', [{ id: 'x' }]],
      ]),
    );
    assert.equal(parseSettings(values).settings.benchmark.requests, 6);
    for (const unset of [undefined, null, {}, { benchmark: 5 }, { benchmark: [6] }])
      assert.equal(valueAt(unset, 'benchmark.requests'), undefined, JSON.stringify(unset));
  });
});

describe('settings: the one policy (keep valid fields, report bad ones with their path)', () => {
  const parse = (entries: Record<string, unknown>) => {
    const { settings, problems } = parseSettings(new Map(Object.entries(entries)));
    return { settings, problems: problems.map(describeProblem) };
  };

  it('unset keys take the defaults, with no problems', () => {
    const { settings, problems } = parse({});
    assert.deepEqual(problems, []);
    assert.equal(settings.benchmark.requests, 20);
    assert.equal(settings.slo.profile, 'interactive');
    assert.equal(settings.slo.ttftMs, undefined);
    assert.deepEqual(settings.endpoints, []);
  });

  it('promptLens.engineVersion: empty is the current release, a release is kept, text that is none is reported', () => {
    assert.equal(parse({ engineVersion: '' }).settings.engineVersion, undefined);
    assert.equal(parse({ engineVersion: '2024-05' }).settings.engineVersion, '2024-05');
    const bad = parse({ engineVersion: 'May 2024' });
    assert.equal(bad.settings.engineVersion, undefined);
    assert.match(bad.problems[0] ?? '', /^promptLens\.engineVersion: .*is not an engine version/);
  });

  it('one bad benchmark.* value resets only itself, not its six neighbours', () => {
    const { settings, problems } = parse({ 'benchmark.requests': 0, 'benchmark.warmup': 3, 'benchmark.cache': 'cold' });
    assert.equal(settings.benchmark.requests, 20);
    assert.equal(settings.benchmark.warmup, 3);
    assert.equal(settings.benchmark.cache, 'cold');
    assert.equal(problems.length, 1);
    assert.match(problems[0]!, /^promptLens\.benchmark\.requests: .*; using the default$/);
  });

  it('benchmark timers stop at 2³¹−1 ms, past which setTimeout fires at once (issue 16)', () => {
    const { settings, problems } = parse({ 'benchmark.timeoutMs': 2 ** 31, 'benchmark.timeLimitSeconds': 2 ** 31 });
    assert.equal(settings.benchmark.timeoutMs, 60_000);
    assert.equal(settings.benchmark.timeLimitSeconds, 600);
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['promptLens.benchmark.timeoutMs', 'promptLens.benchmark.timeLimitSeconds'],
    );
    assert.equal(parse({ 'benchmark.timeoutMs': 2 ** 31 - 1 }).settings.benchmark.timeoutMs, 2 ** 31 - 1);
  });

  it('include globs that would make matching blow up are dropped and named (issue 16)', () => {
    const { settings, problems } = parse({
      include: ['**/*e*e*e*.prompt', '**/prompts/*.txt', '**/{*e,*ee}.md', '**/a/**/b/**/*.md', '**/!(x).md'],
    });
    assert.deepEqual(settings.include, ['**/prompts/*.txt']);
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['promptLens.include[0]', 'promptLens.include[2]', 'promptLens.include[3]', 'promptLens.include[4]'],
    );
  });

  it('a bad list item is dropped and named; the rest of the list stays', () => {
    const { settings, problems } = parse({
      'findings.disabled': ['rag-budget', 'nope'],
      'benchmark.concurrency': [1, 5000, 8],
      endpoints: [
        { name: 'a', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
        { name: 'b', baseUrl: 'ftp://x', model: 'm' },
      ],
    });
    assert.deepEqual(settings.findings.disabled, ['rag-budget']);
    assert.deepEqual(settings.benchmark.concurrency, [1, 8]);
    assert.deepEqual(
      settings.endpoints.map((e) => e.name),
      ['a'],
    );
    assert.equal(problems.length, 3);
    assert.ok(problems.some((p) => /^promptLens\.findings\.disabled\[1\]: .*; item skipped$/.test(p)));
    assert.ok(problems.some((p) => /^promptLens\.benchmark\.concurrency\[1\]: .*; item skipped$/.test(p)));
    assert.ok(problems.some((p) => /^promptLens\.endpoints\[1\]\.baseUrl: must be an http\(s\) URL/.test(p)));
  });

  it('a list emptied by dropping falls back to its default when the schema needs an item', () => {
    const { settings, problems } = parse({ targets: [''] });
    assert.deepEqual(settings.targets, ['llama-3.1-70b@4xh100-sxm', 'openai/gpt-4o']);
    assert.equal(problems.length, 2);
  });

  it('SLO: a bad limit is dropped, the other limits and null (no SLO) are kept', () => {
    const { settings, problems } = parse({ 'slo.ttftMs': -1, 'slo.tpotMs': null, 'slo.concurrency': 4 });
    assert.equal(settings.slo.ttftMs, undefined);
    assert.equal(settings.slo.tpotMs, null);
    assert.equal(settings.slo.concurrency, 4);
    assert.deepEqual(
      problems.map((p) => p.split(':')[0]),
      ['promptLens.slo.ttftMs'],
    );
  });

  it('a value that is not data at all falls back to every default', () => {
    const { value, problems } = keepValid(z.object({ n: z.number().default(1) }), () => 0);
    assert.deepEqual(value, { n: 1 });
    assert.equal(problems[0]?.dropped, 'all');
  });
});

describe('settings: targets under promptLens.engine, .engineVersion and .scope (configuredTargets)', () => {
  const tables = loadTables().tables;
  const configured = (entries: Record<string, unknown>) =>
    configuredTargets(parseSettings(new Map(Object.entries(entries))).settings, tables);
  const llama = 'llama-3.1-8b@rtx-4090:int4+llamacpp';

  it('a release the assumed engine does not have is reported under promptLens.engineVersion, not targets', () => {
    const { assume, targets, problems } = configured({
      engine: 'llamacpp',
      engineVersion: 'may-2024',
      targets: ['llama-3.1-8b@rtx-4090:int4', 'openai/gpt-4o'],
    });
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0]!,
      /^promptLens\.engineVersion: unknown llama\.cpp version 'may-2024'.*; using the current release$/,
    );
    assert.equal(assume.engineVersion, undefined);
    // Every target stays, at the current release.
    assert.deepEqual(
      targets.map((t) => t.id),
      ['llama-3.1-8b@rtx-4090:int4+llamacpp', 'openai/gpt-4o'],
    );
    const first = targets[0]!;
    assert.equal(first.kind === 'self-hosted' && first.release.range, 'current');
  });

  it("a release only a target's own engine rejects is reported under promptLens.engineVersion; the target stays", () => {
    // cublas-prefill is a range of llama.cpp (the assumed engine); TensorRT-LLM has no such range.
    const { targets, problems } = configured({
      engine: 'llamacpp',
      engineVersion: 'cublas-prefill',
      targets: [llama, 'llama-3.1-8b@h100-sxm+trtllm'],
    });
    assert.deepEqual(
      targets.map((t) => t.id),
      [`${llama}~cublas-prefill`, 'llama-3.1-8b@h100-sxm:bf16+trtllm'],
    );
    assert.equal(problems.length, 1, problems.join('\n'));
    assert.match(
      problems[0]!,
      /^promptLens\.engineVersion: unknown TensorRT-LLM version 'cublas-prefill'.*; llama-3\.1-8b@h100-sxm\+trtllm uses the current release$/,
    );
  });

  it('a valid release is assumed without a problem; bad target ids and engines stay under their own keys', () => {
    const ok = configured({ engineVersion: '2024-05', targets: [llama] });
    assert.deepEqual(ok.problems, []);
    assert.equal(ok.assume.engineVersion, '2024-05');
    assert.equal(ok.targets[0]!.kind === 'self-hosted' && ok.targets[0]!.release.range, 'cublas-prefill');
    const bad = configured({ engine: 'vlm', targets: ['llama-3.1-8b@h1000', llama] });
    assert.deepEqual(
      bad.problems.map((p) => p.split(':')[0]),
      ['promptLens.engine', 'promptLens.targets'],
    );
    assert.equal(bad.assume.engine, 'vllm');
    assert.deepEqual(
      bad.targets.map((t) => t.id),
      [llama],
    );
  });
});
