import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { estimateTarget } from '../../../../src/core/analysis/targetEstimates';
import { usageCheck } from '../../../../src/core/bench/usageCheck';
import type { BenchResult } from '../../../../src/core/bench/result';
import { parseBenchResult } from '../../../../src/core/bench/resultSchema';
import { calibrationFileSchema } from '../../../../src/core/calibrate/profileFile';
import {
  correctCount,
  correctionDetail,
  correctionFormula,
  correctTotal,
  fitCorrection,
  mergeSamples,
  promptSizes,
  tokenCorrectionSchema,
  updateCorrection,
} from '../../../../src/core/calibrate/tokenCorrection';
import { resolveProfile } from '../../../../src/core/compare';
import { countChat, type PromptCount } from '../../../../src/core/count';
import { loadTables, parseTargetId, resolveTarget } from '../../../../src/core/estimate';
import { formatTokenCount, markCorrected } from '../../../../src/core/format';
import { reportMarkdown } from '../../../../src/core/findings/reportMarkdown';
import { formatReport } from '../../../../src/core/findings/reportText';
import { getTokenizer } from '../../../../src/core/tokenize/registry';
import { footnotes, statusLine, tooltipTable } from '../../../../src/extension/surfaces/targetTable';
import type { DocumentAnalysis } from '../../../../src/extension/analysis/analyzer';
import { editorAnalysis } from '../../helpers/editorAnalysis';
import { SIM_ENDPOINT, sampleCorrection } from '../../helpers/tokenCorrection';

const sim = SIM_ENDPOINT;
const correction = sampleCorrection;

describe('token correction from billed usage (#22 item 4)', () => {
  describe('the fit', () => {
    it('two prompt sizes: a least-squares line, billed = 1.1 × local + 10', () => {
      const fit = fitCorrection([
        { local: 100, billed: 120, requests: 2 },
        { local: 200, billed: 230, requests: 2 },
      ])!;
      assert.equal(fit.fit, 'line');
      assert.ok(Math.abs(fit.ratio - 1.1) < 1e-9, String(fit.ratio));
      assert.ok(Math.abs(fit.offset - 10) < 1e-9, String(fit.offset));
      assert.equal(fit.requests, 4);
      assert.equal(fit.sizes, 2);
    });

    it('weights each pair by its requests: three at (100, 110) and one at (300, 350) give 1.2 × local − 10', () => {
      // Weighted means x̄ = 150, ȳ = 170; Sxy = 3·(−50)(−60) + 150·180 = 36,000; Sxx = 3·2,500 + 22,500 = 30,000.
      const fit = fitCorrection([
        { local: 100, billed: 110, requests: 3 },
        { local: 300, billed: 350, requests: 1 },
      ])!;
      assert.equal(fit.fit, 'line');
      assert.ok(Math.abs(fit.ratio - 1.2) < 1e-9, String(fit.ratio));
      assert.ok(Math.abs(fit.offset - -10) < 1e-9, String(fit.offset));
    });

    it('one prompt size (cold requests differing by a nonce): a ratio through the origin, Σ billed / Σ local', () => {
      const samples = [
        { local: 100, billed: 112, requests: 3 },
        { local: 101, billed: 113, requests: 1 },
      ];
      assert.equal(promptSizes(samples), 1);
      const fit = fitCorrection(samples)!;
      assert.equal(fit.fit, 'ratio');
      assert.equal(fit.offset, 0);
      assert.equal(fit.ratio, (3 * 112 + 113) / (3 * 100 + 101)); // 449 / 401 = 1.1197…
      assert.equal(fit.requests, 4);
      assert.equal(
        correctionFormula({ ...fit, sizes: 1 }),
        'billed ≈ 1.1197 × local (one prompt size: a ratio through the origin)',
      );
    });

    it('prompt sizes are local counts more than 10 % apart', () => {
      assert.equal(
        promptSizes([
          { local: 100, billed: 1, requests: 1 },
          { local: 110, billed: 1, requests: 1 },
        ]),
        1,
      );
      assert.equal(
        promptSizes([
          { local: 100, billed: 1, requests: 1 },
          { local: 111, billed: 1, requests: 1 },
        ]),
        2,
      );
    });

    it('a line that falls with length is not a correction: the ratio is used instead', () => {
      const fit = fitCorrection([
        { local: 100, billed: 300, requests: 1 },
        { local: 200, billed: 250, requests: 1 },
      ])!;
      assert.equal(fit.fit, 'ratio');
      assert.equal(fit.ratio, 550 / 300);
    });

    it('nothing to fit without a positive local count', () => {
      assert.equal(fitCorrection([]), undefined);
      assert.equal(fitCorrection([{ local: 0, billed: 5, requests: 2 }]), undefined);
    });

    it('runs add up per endpoint; another endpoint or tokenizer starts afresh', () => {
      const first = updateCorrection(undefined, {
        tokenizer: 'claude',
        endpoint: sim,
        samples: [{ local: 100, billed: 120, requests: 2 }],
        date: 'd1',
      })!;
      assert.equal(first.fit, 'ratio');
      assert.equal(first.ratio, 1.2);
      const second = updateCorrection(first, {
        tokenizer: 'claude',
        endpoint: sim,
        samples: [
          { local: 200, billed: 230, requests: 2 },
          { local: 100, billed: 120, requests: 1 },
        ],
        date: 'd2',
      })!;
      assert.equal(second.fit, 'line');
      assert.equal(second.requests, 5);
      assert.deepEqual(second.samples, [
        { local: 200, billed: 230, requests: 2 },
        { local: 100, billed: 120, requests: 3 },
      ]);
      const elsewhere = updateCorrection(second, {
        tokenizer: 'claude',
        endpoint: { ...sim, baseUrl: 'http://other/v1' },
        samples: [{ local: 50, billed: 60, requests: 1 }],
        date: 'd3',
      })!;
      assert.equal(elsewhere.requests, 1);
      assert.ok(tokenCorrectionSchema.safeParse(second).success);
    });

    it('keeps the newest 200 pairs', () => {
      const many = Array.from({ length: 250 }, (_, i) => ({ local: 100 + i, billed: 110 + i, requests: 1 }));
      const kept = mergeSamples([], many);
      assert.equal(kept.length, 200);
      assert.equal(kept[0]!.local, 150);
    });
  });

  describe('the count', () => {
    const count: PromptCount = {
      tokenizer: 'claude',
      exact: false,
      contentTokens: 1000,
      inputTokens: 1010,
      messages: [
        { role: 'system', tokens: 400 },
        { role: 'user', tokens: 600 },
      ],
      variables: [],
      errors: [],
    };

    it('corrects an approximate count: total through the line, messages by the ratio, the local count kept', () => {
      const c = correctCount(count, correction());
      assert.equal(c.inputTokens, 1121); // 1.1 × 1,010 + 10
      assert.equal(c.contentTokens, 1100);
      assert.deepEqual(
        c.messages.map((m) => m.tokens),
        [440, 660],
      );
      assert.deepEqual(c.corrected, {
        endpoint: 'sim',
        requests: 4,
        sizes: 2,
        fit: 'line',
        ratio: 1.1,
        offset: 10,
        localTokens: 1010,
      });
      assert.equal(
        correctionDetail(c.corrected!),
        'corrected from 4 requests to sim: billed ≈ 1.1000 × local + 10.0 (2 prompt sizes); local count 1,010',
      );
    });

    it('never corrects an exact tokenizer, nor a count made with another tokenizer', () => {
      const exact = { ...count, tokenizer: 'llama3' as const, exact: true };
      assert.equal(correctCount(exact, correction({ tokenizer: 'llama3' })), exact);
      assert.equal(correctCount(count, correction({ tokenizer: 'gemini' })), count);
      assert.equal(correctCount(count, undefined), count);
      assert.deepEqual(correctTotal('o200k_base', 100, correction({ tokenizer: 'o200k_base' })), { tokens: 100 });
    });
  });

  describe('the label on each surface', () => {
    it('the one formatter: "≈1,121 (corrected from 4 requests)", thousands separated, nothing when not corrected', () => {
      assert.equal(formatTokenCount(1121, false, { requests: 4 }), '≈1,121 (corrected from 4 requests)');
      assert.equal(formatTokenCount(12_480, false, { requests: 1_200 }), '≈12,480 (corrected from 1,200 requests)');
      assert.equal(formatTokenCount(1121, false, undefined), '≈1,121');
      // CodeLens: the message's "N tok" marked the same way.
      assert.equal(markCorrected('≈440 tok', { requests: 4 }), '≈440 tok (corrected from 4 requests)');
    });

    it('status bar, its tooltip and the hover footnotes; Compare; the report', async () => {
      const { tables } = loadTables();
      const target = resolveTarget(parseTargetId('anthropic/claude-sonnet-4.6'), tables);
      const file = 'support.prompt';
      const text = readFileSync(join(__dirname, '../../../../examples', file), 'utf8');
      const { engine, count, cacheable } = await editorAnalysis(file, text, target, tables);
      const fix = correction();
      // Where the analyzer makes estimates: the count corrected once, then estimated.
      const corrected = correctCount(count, fix);
      assert.equal(corrected.inputTokens, Math.round(1.1 * count.inputTokens + 10));
      const estimate = estimateTarget({
        target,
        count: corrected,
        prefixTokens: cacheable?.tokens ?? 0,
        slo: resolveProfile(),
      });
      assert.equal(estimate.inputTokens, corrected.inputTokens);
      assert.deepEqual(estimate.corrected, corrected.corrected);
      const shown = formatTokenCount(corrected.inputTokens, false, { requests: 4 });

      const line = statusLine(corrected.inputTokens, corrected.exact, estimate);
      assert.ok(line.startsWith(`${shown.replace(' (', ' tok (')} · TTFT`), line);
      const analysis = { targets: [estimate], count: corrected } as unknown as DocumentAnalysis;
      const row = tooltipTable(analysis).find((r) => r.startsWith('| Claude') || r.includes('claude'));
      assert.ok(row?.includes(shown), row);
      const notes = footnotes(analysis).join('\n');
      assert.ok(notes.includes('corrected from 4 requests to sim: billed ≈ 1.1000 × local + 10.0'), notes);

      // Compare: the same corrected count, said in its assumptions.
      const compared = engine.compare(file, {
        profile: resolveProfile(),
        calibrations: {},
        corrections: { [target.id]: fix },
      });
      const compareRow = compared.rows.find((r) => r.target === target.id)!;
      assert.equal(compareRow.inputTokens, corrected.inputTokens);
      assert.equal(compareRow.tokensCorrected?.requests, 4);
      assert.ok(
        compared.assumptions.some((a) => a.includes(`Tokens of ${target.id} corrected from 4 requests to sim`)),
        compared.assumptions.join('\n'),
      );
      // Report: file tokens corrected, and said once under the target.
      const report = engine.report([{ path: file, text }], target.id, { [target.id]: fix });
      assert.equal(report.files[0]!.tokens, corrected.inputTokens);
      assert.ok(
        formatReport(report).includes('Token counts corrected from 4 requests: billed ≈ 1.1000 × local + 10.0'),
      );
      assert.ok(reportMarkdown(report, () => '').includes('_Token counts corrected from 4 requests'));
      const uncorrected = engine.report([{ path: file, text }], target.id);
      assert.equal(uncorrected.files[0]!.tokens, count.inputTokens);
      assert.equal(uncorrected.target.tokensCorrected, undefined);
    });
  });

  describe('from the benchmark runs', () => {
    it('the usage self-check keeps each distinct (local, billed) pair; history entries validate with them', async () => {
      const messages = [{ role: 'user' as const, content: 'Say hello in one sentence.' }];
      const request = (nonce: string, inputTokens: number) => ({ ok: true, nonce, inputTokens });
      const result = {
        modes: [{ levels: [{ requests: [request('a', 20), request('b', 20), request('a', 20)] }] }],
      } as unknown as BenchResult;
      const tokenizer = getTokenizer('claude');
      const check = (await usageCheck(result, messages, (m) => countChat(m, tokenizer)))!;
      const local = countChat([{ role: 'user', content: `[a] Say hello in one sentence.` }], tokenizer).inputTokens;
      assert.equal(check.exact, false);
      assert.ok(check.samples && check.samples.length >= 1);
      assert.equal(
        check.samples.reduce((n, s) => n + s.requests, 0),
        3,
      );
      assert.ok(check.samples.every((s) => s.billed === 20));
      assert.ok(local > 0);
      const parsed = parseBenchResult({
        schemaVersion: 1,
        startedAt: '2026-12-01T22:00:00.000Z',
        endpoint: { name: 'sim', kind: 'openai-chat', baseUrl: sim.baseUrl, model: sim.model },
        options: { requests: 3, warmup: 0, cache: 'cold', maxTokens: 8, timeoutMs: 1000 },
        slo: { ttftMs: 1000, tpotMs: 100 },
        partial: false,
        modes: [],
        usage: check,
      });
      assert.ok(parsed.ok, parsed.ok ? '' : parsed.issues.message);
    });

    it('the calibration file format stays importable with and without the correction', () => {
      const shape = calibrationFileSchema.shape;
      assert.ok(shape.correction.safeParse(undefined).success);
      assert.ok(shape.correction.safeParse(correction()).success);
      assert.equal(shape.correction.safeParse({ ...correction(), ratio: -1 }).success, false);
    });
  });
});
