import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadTables, type ProviderRow } from '../../../src/core/estimate';
import {
  checkDrift,
  overridesFileSchema,
  scenariosFor,
  type Override,
  type Reference,
  type ReferenceUsage,
} from '../../../scripts/prices/drift';
import { providersMarkdown } from '../../../scripts/prices/providersDoc';

const rows = [...loadTables().tables.providers.values()];
const row = (id: string) => rows.find((r) => r.id === id) as ProviderRow;

/** A reference that prices like a flat-rate table given here, independently of the project's cost code. */
function flatReference(
  prices: Record<string, { input: number; read?: number; write?: number; output: number }>,
  windows: Record<string, number> = {},
): Reference {
  return {
    price(r, u: ReferenceUsage) {
      const p = prices[r.id];
      if (!p) return undefined;
      const read = u.cache_read_tokens ?? 0;
      const write = u.cache_write_tokens ?? 0;
      const usd =
        ((u.input_tokens - read - write) * p.input +
          read * (p.read ?? p.input) +
          write * (p.write ?? p.input) +
          u.output_tokens * p.output) /
        1e6;
      return { usd, model: r.model };
    },
    contextWindow: (r) => windows[r.id],
  };
}

describe('check:prices drift logic', () => {
  const gpt4o = row('openai/gpt-4o');
  const agreeing = flatReference(
    { 'openai/gpt-4o': { input: 2.5, read: 1.25, output: 10 } },
    { 'openai/gpt-4o': 128000 },
  );

  it('prices cold, cached and first-write calls, plus 1-h writes, long-context and peak where a row has them', () => {
    assert.deepEqual(
      scenariosFor(gpt4o).map((s) => s.name),
      ['cold', 'cached', 'write'],
    );
    assert.deepEqual(
      scenariosFor(row('anthropic/claude-sonnet-4.5')).map((s) => s.name),
      ['cold', 'cached', 'write', 'write-1h', 'long'],
    );
    assert.deepEqual(
      scenariosFor(row('deepseek/deepseek-flash')).map((s) => s.name),
      ['cold', 'cached', 'write', 'peak'],
    );
    const long = scenariosFor(row('openai/gpt-6-sol')).find((s) => s.name === 'long');
    assert.equal(long?.inputTokens, 272_001);
  });

  it('passes when both agree, and lists rows the reference does not know', () => {
    const r = checkDrift([gpt4o, row('openai/gpt-6.2-sol')], agreeing, []);
    assert.deepEqual(r.unexplained, []);
    assert.deepEqual(r.unknownToReference, ['openai/gpt-6.2-sol']);
    assert.equal(r.compared, 4); // three scenarios + the context window
  });

  it('fails on a price or window difference no override explains', () => {
    const drifted = flatReference(
      { 'openai/gpt-4o': { input: 2.5, read: 1.25, output: 12 } },
      { 'openai/gpt-4o': 128000 },
    );
    const r = checkDrift([gpt4o], drifted, []);
    assert.deepEqual(
      r.unexplained.map((d) => d.check),
      ['cold', 'cached', 'write'],
    );
    const narrower = checkDrift(
      [gpt4o],
      flatReference({ 'openai/gpt-4o': { input: 2.5, read: 1.25, output: 10 } }, { 'openai/gpt-4o': 100000 }),
      [],
    );
    assert.deepEqual(narrower.unexplained, [
      { id: 'openai/gpt-4o', check: 'context', ours: 128000, reference: 100000 },
    ]);
  });

  it('an override explains exactly the difference it records; one that matches nothing is stale', () => {
    const drifted = flatReference(
      { 'openai/gpt-4o': { input: 2.5, read: 1.25, output: 10 } },
      { 'openai/gpt-4o': 100000 },
    );
    const override: Override = {
      id: 'openai/gpt-4o',
      check: 'context',
      ours: 128000,
      reference: 100000,
      why: 'a reason that is long enough',
      source: 'somewhere',
    };
    const ok = checkDrift([gpt4o], drifted, [override]);
    assert.deepEqual(ok.unexplained, []);
    assert.deepEqual(ok.stale, []);
    assert.equal(ok.explained.length, 1);
    const moved = checkDrift([gpt4o], drifted, [{ ...override, reference: 90000 }]);
    assert.equal(moved.unexplained.length, 1);
    assert.equal(moved.stale.length, 1);
  });

  it('the committed overrides file is valid and every entry gives a reason and a source', () => {
    const file = overridesFileSchema.parse(
      parse(readFileSync(join(__dirname, '../../../data/price-overrides.yml'), 'utf8')),
    );
    assert.ok(file.overrides.length > 0);
    for (const o of file.overrides)
      assert.ok(
        rows.some((r) => r.id === o.id),
        `${o.id} is not a provider row`,
      );
    assert.throws(() =>
      overridesFileSchema.parse({
        overrides: [{ id: 'x/y', check: 'cold', ours: 1, reference: 2, why: 'short', source: 'x' }],
      }),
    );
  });

  it('the product never loads @pydantic/genai-prices (it is the reference, a dev dependency)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? files(path) : [path];
      });
    const importing = files(join(__dirname, '../../../src')).filter((f) =>
      readFileSync(f, 'utf8').includes('genai-prices'),
    );
    assert.deepEqual(importing, []);
    const pkg = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    assert.equal(pkg.dependencies['@pydantic/genai-prices'], undefined);
    assert.match(pkg.devDependencies['@pydantic/genai-prices'] ?? '', /^\d+\.\d+\.\d+$/); // pinned exactly
  });
});

describe('docs/providers.md', () => {
  it('is the table generated from data/providers.json (run npm run docs:providers after editing the rows)', () => {
    const committed = readFileSync(join(__dirname, '../../../docs/providers.md'), 'utf8');
    assert.equal(committed, providersMarkdown(rows));
    assert.match(
      committed,
      /\| `anthropic\/claude-sonnet-4\.5` \|.*\| 200,000 \| \*\*retired 2026-11-30\*\* → `anthropic\/claude-sonnet-5\.5` \| 2026-12-01 \|/,
    );
  });
});
