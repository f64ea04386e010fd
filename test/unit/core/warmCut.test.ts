import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { editorAnalysis } from '../helpers/editorAnalysis';
import { statusLine } from '../../../src/extension/surfaces/targetTable';

const { tables } = loadTables();
const TARGET = 'llama-3.1-70b@4xh100-sxm';

/** Counts and analyses one prompt as the editor does; returns its cacheable prefix and the primary's estimate. */
async function analyse(text: string, fileName = 'p.prompt') {
  const { count, cacheable, estimate } = await editorAnalysis(
    fileName,
    text,
    resolveTarget(parseTargetId(TARGET), tables),
    tables,
  );
  return { cacheable, estimate, line: statusLine(count.inputTokens, count.exact, estimate), count };
}

const rules = Array.from(
  { length: 60 },
  (_, i) => `Rule ${i}: answer in the customer's language and cite policy section ${i}.`,
).join('\n');
const documents = Array.from(
  { length: 12 },
  (_, i) => `<document index="${i}">The Trailhead tent model ${i} ships within ${i + 3} days.</document>`,
).join('\n');

/** #15 item 2: warm means really cacheable — never retrieved context, never past the first dynamic part. */
describe('warm = the static prefix, cut at the first dynamic part', () => {
  it('rag-oversized example: the headline is cold; warm caches the instructions, not the documents', async () => {
    const text = readFileSync(join(__dirname, '../../../examples/findings/prompts/rag-oversized.prompt'), 'utf8');
    const { cacheable, estimate, line, count } = await analyse(text, 'rag-oversized.prompt');
    const documentsAt = text.indexOf('<documents>');
    assert.ok(cacheable, 'the instructions before the documents are a static prefix');
    assert.ok(cacheable.endOffset <= documentsAt, `${cacheable.endOffset} > ${documentsAt}`);
    assert.ok(cacheable.tokens < 100 && cacheable.tokens < count.inputTokens / 10, `${cacheable.tokens} cached`);
    assert.equal(cacheable.source, 'static');
    // The status bar leads with the cold TTFT (2.4 s here at 8 concurrent), not a warm figure of tens of ms.
    assert.match(line, /^[\d,]+ tok · TTFT [\d.]+ (ms|s) cold/);
    assert.ok(estimate.cold.ttftMs.p50 > 300, `cold ${estimate.cold.ttftMs.p50} ms`);
    if (estimate.warm) assert.ok(estimate.warm.ttftMs.p50 > 0.8 * estimate.cold.ttftMs.p50, 'warm saves little');
    // 16 cached tokens do not change the displayed TTFT: no warm figure in the status bar.
    assert.doesNotMatch(line, /warm/);
  });

  it('a literal retrieved-context block in the system prompt ends the prefix', async () => {
    const text = `system:\n${rules}\n\n<documents>\n${documents}\n</documents>\nuser:\nWhich tent ships fastest?\n`;
    const { cacheable } = await analyse(text);
    assert.ok(cacheable);
    assert.equal(cacheable.endOffset, text.indexOf('<documents>'));
  });

  it('a templated retrieval slot ends the prefix, even with static text after it', async () => {
    const text = `system:\n${rules}\n{{context}}\n${rules.replace(/Rule/g, 'Also')}\nuser:\nWhich tent?\n`;
    const { cacheable } = await analyse(text);
    assert.ok(cacheable);
    assert.equal(cacheable.endOffset, text.indexOf('{{context}}'));
  });

  it('a templated date in the system prompt ends the prefix; the status line puts cold first, labels warm', async () => {
    const text = `system:\n${rules}\nToday is {{today}}.\n${rules}\nuser:\nHello\n`;
    const { cacheable, estimate, line } = await analyse(text);
    assert.ok(cacheable);
    assert.equal(cacheable.endOffset, text.indexOf('{{today}}'));
    assert.ok(estimate.warm, 'a 60-rule static prefix is cached on a self-hosted target');
    assert.ok(line.indexOf('cold') < line.indexOf('warm'), line);
    assert.match(line, / · [\d.]+ ms warm · /);
  });

  it('no dynamic part: the system prompt, never the user turn', async () => {
    const text = `system:\n${rules}\nuser:\nWhich tent ships fastest?\n`;
    const { cacheable, count } = await analyse(text);
    assert.ok(cacheable);
    assert.equal(cacheable.source, 'system prompt');
    assert.equal(cacheable.tokens, count.messages[0]!.tokens);
  });

  it('a prompt that opens with a variable has no warm figure, and says why', async () => {
    const text = `system:\n{{persona}}\n${rules}\nuser:\nHi\n`;
    const { cacheable, estimate, line } = await analyse(text);
    // Only the system message's role header precedes the variable.
    assert.ok((cacheable?.tokens ?? 0) <= 1, JSON.stringify(cacheable));
    assert.equal(estimate.warm, undefined);
    assert.match(estimate.noWarm ?? '', /no static prefix|below .*cache minimum/);
    assert.ok(!line.includes('warm'), line);
  });
});
