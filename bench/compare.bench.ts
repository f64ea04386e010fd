// How long one comparison takes: the hover's cheapest-target line must not stall the editor. The first call
// loads the tokenizer vocabularies; later calls reuse them (the extension should also cache per document version).
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { compareTargets, resolveProfile, selfHostedModel } from '../src/core/compare';
import { promptTokenCounter } from '../src/core/count';
import { loadTables } from '../src/core/estimate';
import { parsePrompt } from '../src/core/prompt/parse';

export async function run(): Promise<void> {
  const { tables } = loadTables();
  const text = readFileSync('examples/support.prompt', 'utf8').repeat(40);
  const model = selfHostedModel(tables, { chosen: 'llama-3.1-70b' });
  const once = (profile: 'interactive' | 'batch') => {
    const start = performance.now();
    const result = compareTargets({
      tables,
      profile: resolveProfile({ profile }),
      countTokens: promptTokenCounter(parsePrompt('support.prompt', text)),
      cachedTokens: 500,
      ...(model ? { model } : {}),
    });
    return { ms: performance.now() - start, rows: result.rows.length };
  };
  const first = once('interactive');
  const times = Array.from({ length: 20 }, () => once('interactive').ms).sort((a, b) => a - b);
  const batch = once('batch');
  console.log(`compare: first call ${first.ms.toFixed(0)} ms (vocabulary load), ${first.rows} rows`);
  console.log(
    `compare: repeated interactive p50 ${times[10]?.toFixed(1)} ms, max ${times[19]?.toFixed(1)} ms (a fresh token counter each call, so counting is included)`,
  );
  console.log(`compare: batch ${batch.ms.toFixed(1)} ms, ${batch.rows} rows`);
}
