// npm run check:prices — prices a fixed grid of calls for every provider row with this project's
// cost code and with @pydantic/genai-prices (a dev dependency: the reference, never loaded by the
// product), and fails on any difference data/price-overrides.yml does not justify. It also lists the
// models genai-prices knows that the tables lack.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calcPrice, findProvider, type ModelInfo, type ModelPrice } from '@pydantic/genai-prices';
import { parse } from 'yaml';
import { loadTables, type ProviderRow } from '../src/core/estimate';
import { checkDrift, formatDifference, overridesFileSchema, type Reference } from './prices/drift';

/** This project's provider ids where genai-prices spells them differently. */
const REFERENCE_PROVIDER: Record<string, string> = { xai: 'x-ai' };
const providerId = (row: ProviderRow) => REFERENCE_PROVIDER[row.provider] ?? row.provider;

const genaiPrices: Reference = {
  price(row, usage, at) {
    const result = calcPrice({ ...usage }, row.model, { providerId: providerId(row), timestamp: at });
    return result ? { usd: result.total_price, model: `${result.provider.id}/${result.model.id}` } : undefined;
  },
  contextWindow(row) {
    const provider = findProvider({ providerId: providerId(row) });
    const result = provider && calcPrice({ input_tokens: 1, output_tokens: 0 }, row.model, { provider });
    return result?.model.context_window;
  },
};

/** Chat/text models only: what a prompt author targets (not embeddings, speech, images, OCR). */
const NOT_CHAT =
  /(tts|embed|image|audio|transcri|realtime|ocr|search|moderation|whisper|voice|guard|live|vision|dall|sora|:free|^ft:|\.ft-)/i;

function currentPrices(model: ModelInfo): ModelPrice {
  return Array.isArray(model.prices) ? (model.prices[model.prices.length - 1]?.prices ?? {}) : model.prices;
}

function missingModels(rows: readonly ProviderRow[], matched: Set<string>): string[] {
  const missing: string[] = [];
  for (const id of new Set(rows.map(providerId))) {
    for (const model of findProvider({ providerId: id })?.models ?? []) {
      const prices = currentPrices(model);
      // genai-prices' google provider also prices Claude on Vertex: not Google's own models.
      const resold = id !== 'anthropic' && model.id.startsWith('claude');
      if (
        model.deprecated ||
        resold ||
        NOT_CHAT.test(model.id) ||
        prices.input_mtok === undefined ||
        prices.output_mtok === undefined
      )
        continue;
      if (!matched.has(`${id}/${model.id}`)) missing.push(`${id}/${model.id}`);
    }
  }
  return missing;
}

function main(): number {
  const { tables, problems } = loadTables();
  if (problems.length > 0) {
    console.error(`check:prices: the built-in tables have problems:\n${JSON.stringify(problems, null, 2)}`);
    return 1;
  }
  const file = join(__dirname, '..', 'data', 'price-overrides.yml');
  const overrides = overridesFileSchema.safeParse(parse(readFileSync(file, 'utf8')));
  if (!overrides.success) {
    console.error(
      `check:prices: ${file}: ${overrides.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
    return 1;
  }
  const rows = [...tables.providers.values()];
  const result = checkDrift(rows, genaiPrices, overrides.data.overrides);
  const lines = [
    `check:prices: ${rows.length} provider rows, ${result.compared} comparisons with @pydantic/genai-prices at 2026-12-01T12:00Z (peak: 09:00Z)`,
    `  ${result.explained.length} differences justified in data/price-overrides.yml:`,
    ...result.explained.map((e) => `    ${formatDifference(e.difference)} — ${e.why}`),
    `  not in genai-prices (not cross-checked): ${result.unknownToReference.join(', ') || 'none'}`,
  ];
  const missing = missingModels(rows, result.matched);
  lines.push(`  chat models genai-prices knows that the tables lack (${missing.length}): ${missing.join(', ')}`);
  console.log(lines.join('\n'));
  if (result.unexplained.length > 0)
    console.error(
      `check:prices: FAIL: ${result.unexplained.length} unexplained difference(s); fix the row or add a justified override:\n` +
        result.unexplained.map((d) => `  ${formatDifference(d)}`).join('\n'),
    );
  if (result.stale.length > 0)
    console.error(
      `check:prices: FAIL: ${result.stale.length} override(s) match no difference any more; remove or update them:\n` +
        result.stale.map((o) => `  ${o.id} ${o.check}: ours ${o.ours}, reference ${o.reference}`).join('\n'),
    );
  const failed = result.unexplained.length + result.stale.length;
  if (failed === 0) console.log('check:prices: OK');
  return failed === 0 ? 0 : 1;
}

process.exitCode = main();
