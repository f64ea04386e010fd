import type { LinearCostParams } from '../../../src/core/findings/costModel';
import type { ChatRole, ParsedPrompt, TemplateVariable } from '../../../src/core/prompt/types';
import type { Tokenizer, TokenizerId } from '../../../src/core/tokenize/types';

const wordsOf = (text: string): string[] => text.split(/\s+/).filter((w) => w.length > 0);

/**
 * One token per whitespace-separated word: counts in tests are known by construction. Exact, as
 * an approximation would encode with o200k_base's ids (and be split where o200k_base can be).
 */
export const wordTokenizer: Tokenizer = {
  id: 'words' as TokenizerId,
  exact: true,
  encode: (text) => wordsOf(text).map(wordId),
  count: (text) => wordsOf(text).length,
  countBase: (text) => wordsOf(text).length,
  countChunks: (text) => (text ? [{ length: text.length, tokens: wordsOf(text).length }] : []),
  finish: (n) => n,
};

function wordId(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = (Math.imul(h, 31) + word.charCodeAt(i)) | 0;
  return h & 0x7fffffff;
}

/** `n` distinct words w0 … w(n-1) starting at `from`. */
export function words(n: number, prefix = 'w', from = 0): string {
  return Array.from({ length: n }, (_, i) => `${prefix}${from + i}`).join(' ');
}

/**
 * A prompt file with `role:` marker lines, parsed the way the full parser will: one message per
 * section, `{{name}}` variables, filled from `sample` where it has a value.
 */
export function promptFile(
  sections: Array<[ChatRole, string]>,
  sample: Record<string, unknown> = {},
): { text: string; parsed: ParsedPrompt } {
  let text = '';
  const messages: ParsedPrompt['messages'] = [];
  const variables: TemplateVariable[] = [];
  for (const [role, body] of sections) {
    text += `${role}:\n`;
    const start = text.length;
    text += body;
    const end = text.length;
    text += '\n';
    for (const m of body.matchAll(/\{\{\s*(\w+)\s*\}\}/g)) {
      const name = m[1] as string;
      variables.push({
        name,
        range: { start: start + m.index, end: start + m.index + m[0].length },
        filled: name in sample,
      });
    }
    const rendered = body.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
      name in sample ? String(sample[name]) : whole,
    );
    messages.push({ role, text: body, rendered, range: { start, end } });
  }
  return {
    text,
    parsed: { format: 'plain', engine: 'generic', messages, variables, settings: { sample }, errors: [] },
  };
}

/**
 * A linear cost model whose figures are easy to work out by hand: TTFT = 100 ms + 0.1 ms per uncached token
 * + 0.01 ms per cached one; $2 per million uncached input tokens, $0.50 per million cached; cache in steps of 16.
 */
export const LINEAR_PARAMS: LinearCostParams = {
  label: 'test model',
  cacheRule: { minTokens: 16, granularity: 16 },
  baseMs: 100,
  msPerToken: 0.1,
  msPerCachedToken: 0.01,
  usdPerMillionInput: 2,
  usdPerMillionCached: 0.5,
};
