import assert from 'node:assert/strict';
import { evaluateTarget, NOTE, resolveProfile } from '../../../../src/core/compare';
import { addCheaperWiderNotes } from '../../../../src/core/compare/notes';
import { parseTargetId, resolveTarget } from '../../../../src/core/estimate';
import { builtin } from '../estimate/helpers';
import { fixedTokens, row } from './helpers';

const judge = (id: string, tokens: number, settings: Parameters<typeof resolveProfile>[0], cachedTokens = 0) => {
  const result = evaluateTarget(resolveTarget(parseTargetId(id), builtin), {
    profile: resolveProfile(settings),
    cachedTokens,
    countTokens: fixedTokens(tokens),
  });
  assert.ok(result.row, result.skipped);
  return result.row;
};
const has = (notes: string[], note: string) => notes.some((n) => n.startsWith(note));

describe('compare: verdicts and lever notes', () => {
  it('names the failing metric in the verdict', () => {
    const r = judge('llama-3.1-70b@4xh100-sxm:fp8', 2000, { ttftMs: 1, tpotMs: 1 });
    assert.deepEqual(r.failing, ['ttft', 'tpot']);
    assert.equal(r.meetsSlo, false);
    assert.match(r.verdict, /^TTFT p99 \d+ ms > 1 ms; TPOT [\d.]+ ms > 1 ms$/);
    const ok = judge('llama-3.1-70b@4xh100-sxm:fp8', 2000, { ttftMs: 60_000, tpotMs: 1000 });
    assert.deepEqual([ok.meetsSlo, ok.failing, ok.verdict], [true, [], 'meets']);
  });

  it('"meets the SLO with prefix caching only" when warm meets and cold does not', () => {
    const warm = judge('llama-3.1-70b@4xh100-sxm:fp8', 2400, { profile: 'interactive' }, 2300);
    assert.ok(warm.meetsSlo && !warm.coldMeetsSlo, `warm ${warm.ttftMs.p99} cold ${warm.coldTtftMs.p99}`);
    assert.ok(has(warm.notes, NOTE.cachingOnly), warm.notes.join());
    // Not without a cached prefix, and not when cold meets as well.
    assert.ok(!has(judge('llama-3.1-70b@4xh100-sxm:fp8', 2400, { profile: 'interactive' }).notes, NOTE.cachingOnly));
    const easy = judge('llama-3.1-70b@4xh100-sxm:fp8', 200, { profile: 'interactive' }, 100);
    assert.ok(easy.meetsSlo && easy.coldMeetsSlo && !has(easy.notes, NOTE.cachingOnly));
  });

  it('"decode-bound" when TPOT fails and decode is limited by HBM bandwidth', () => {
    const slow = judge('llama-3.1-70b@2xh100-sxm:fp8', 1000, { ttftMs: null, tpotMs: 5 });
    assert.deepEqual([slow.failing, slow.decodeBound], [['tpot'], 'memory']);
    assert.ok(has(slow.notes, NOTE.decodeBound), slow.notes.join());
    const fine = judge('llama-3.1-70b@2xh100-sxm:fp8', 1000, { ttftMs: null, tpotMs: 100 });
    assert.ok(!has(fine.notes, NOTE.decodeBound));
    // Providers have no decode split to blame.
    assert.ok(!has(judge('openai/gpt-4o', 1000, { ttftMs: null, tpotMs: 1 }).notes, NOTE.decodeBound));
  });

  it('"over the SLO at this concurrency" when one request in flight would meet it', () => {
    const burst = judge('llama-3.1-8b@h100-sxm:bf16', 4000, { ttftMs: 500, tpotMs: 100, concurrency: 64 });
    assert.deepEqual(burst.failing, ['ttft']);
    assert.ok(has(burst.notes, NOTE.overConcurrency), burst.notes.join());
    // Not when even one request is over, and not at concurrency 1.
    assert.ok(
      !has(
        judge('llama-3.1-8b@h100-sxm:bf16', 4000, { ttftMs: 20, tpotMs: 100, concurrency: 64 }).notes,
        NOTE.overConcurrency,
      ),
    );
    const single = judge('llama-3.1-8b@h100-sxm:bf16', 4000, { ttftMs: 20, tpotMs: 100, concurrency: 1 });
    assert.ok(!single.meetsSlo && !has(single.notes, NOTE.overConcurrency));
  });

  describe('"compute-bound prefill: a cheaper GPU with more count meets it"', () => {
    const deployment = (hardware: string, gpus: number, usdPerGpuHour: number, precision: 'fp8' | 'bf16' = 'fp8') => ({
      model: 'm',
      hardware,
      gpus,
      precision,
      usdPerGpuHour,
      priceSource: 'test',
    });
    const slow = () =>
      row({
        target: 'm@h200:fp8',
        kind: 'self-hosted',
        meetsSlo: false,
        failing: ['ttft'],
        prefillBound: 'compute',
        deployment: deployment('h200', 1, 4.5),
      });
    const cheaperWider = row({
      target: 'm@4xl40s:fp8',
      kind: 'self-hosted',
      costPer1kCallsUsd: 2,
      deployment: deployment('l40s', 4, 1.55),
    });

    it('names the cheapest such row', () => {
      const cheapest = row({
        target: 'm@2xa100:fp8',
        kind: 'self-hosted',
        costPer1kCallsUsd: 1,
        deployment: deployment('a100', 2, 1.99),
      });
      const rows = [slow(), cheaperWider, cheapest];
      addCheaperWiderNotes(rows);
      assert.deepEqual(rows[0]?.notes, [`${NOTE.cheaperWider} (m@2xa100:fp8)`]);
      assert.deepEqual([rows[1]?.notes, rows[2]?.notes], [[], []]);
    });

    it('not when the other row is dearer per GPU-hour, no wider, at another precision, failing, or when prefill is memory-bound', () => {
      const others = [
        row({ ...cheaperWider, target: 'dearer', deployment: deployment('b200', 4, 6.69) }),
        row({ ...cheaperWider, target: 'narrower', deployment: deployment('l40s', 1, 1.55) }),
        row({ ...cheaperWider, target: 'bf16', deployment: deployment('l40s', 4, 1.55, 'bf16') }),
        row({ ...cheaperWider, target: 'failing', meetsSlo: false, failing: ['ttft'] }),
      ];
      const rows = [slow(), ...others];
      addCheaperWiderNotes(rows);
      assert.deepEqual(rows[0]?.notes, []);
      const memoryBound = [row({ ...slow(), prefillBound: 'memory' }), cheaperWider];
      addCheaperWiderNotes(memoryBound);
      assert.deepEqual(memoryBound[0]?.notes, []);
      const tpotOnly = [row({ ...slow(), failing: ['tpot'] }), cheaperWider];
      addCheaperWiderNotes(tpotOnly);
      assert.deepEqual(tpotOnly[0]?.notes, []);
    });
  });
});
