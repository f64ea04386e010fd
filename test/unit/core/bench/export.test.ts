import assert from 'node:assert/strict';
import { benchResultCsv } from '../../../../src/core/bench/export';
import type { BenchResult, LevelSummary } from '../../../../src/core/bench/result';

const summary = {} as LevelSummary;

describe('benchmark CSV export', () => {
  it('writes one quoted row per request and neutralises formula-like text', () => {
    const result = {
      modes: [
        {
          cache: 'cold',
          levels: [
            {
              label: 'c=1',
              concurrency: 1,
              durationMs: 1,
              warmupErrors: 0,
              summary,
              requests: [
                {
                  startMs: 0,
                  ok: true,
                  ttftMs: 120.5,
                  e2eMs: 400,
                  itlMs: [1, 2],
                  tpotMs: 10,
                  outputTokens: 3,
                  outputTokensSource: 'usage',
                },
                {
                  startMs: 5,
                  ok: false,
                  itlMs: [],
                  error: { class: 'http', status: 500, message: '=HYPERLINK("x"), "quoted"\nline' },
                },
              ],
            },
          ],
        },
      ],
    } as unknown as BenchResult;
    const lines = benchResultCsv(result).split('\r\n');
    assert.match(lines[0]!, /^cache,level,concurrency/);
    assert.equal(lines[1], 'cold,c=1,1,,0,true,,120.5,10,400,3,usage,,,,,');
    assert.equal(lines[2], `cold,c=1,1,,5,false,,,,,,,,,http,500,"'=HYPERLINK(""x""), ""quoted""\nline"`);
    assert.equal(lines.length, 4); // header, two rows, final empty after the last CRLF
  });
});
