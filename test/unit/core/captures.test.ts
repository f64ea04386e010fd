import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { countPrompt } from '../../../src/core/count';
import { parsePrompt } from '../../../src/core/prompt/parse';
import { tokenizerFor } from '../../../src/core/tokenize/models';
import { getTokenizer } from '../../../src/core/tokenize/registry';

// Each fixture is a public capture (cited in its `source`) where both the request and the usage the
// endpoint billed are known; the local count of that exact request must equal the billed count.
const DIR = join(__dirname, '../../fixtures/captures');
interface Capture {
  source: string;
  request: { model: string; messages: unknown[] };
  usage: { prompt_tokens: number };
}
const captures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ file: f, capture: JSON.parse(readFileSync(join(DIR, f), 'utf8')) as Capture }));

describe('counts equal what real endpoints billed (public captures)', () => {
  for (const { file, capture } of captures) {
    const tokenizer = getTokenizer(tokenizerFor(capture.request.model));
    it(`${file}: ${capture.request.model} billed ${capture.usage.prompt_tokens}`, () => {
      assert.ok(tokenizer.exact, `${tokenizer.id} must be exact for a billed-count test`);
      // The request as sent (tools and response_format included), less the model the count is given apart.
      const parsed = parsePrompt(file, JSON.stringify({ ...capture.request, model: undefined }));
      const count = countPrompt(parsed, tokenizer, tokenizer, capture.request.model);
      assert.equal(count.inputTokens, capture.usage.prompt_tokens);
      assert.ok(count.exact, (count.approximations ?? []).join('; '));
    });
  }
});
