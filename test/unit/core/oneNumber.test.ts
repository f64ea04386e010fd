import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { resolveProfile, type CompareRow } from '../../../src/core/compare';
import { loadTables, parseTargetId, resolveTarget, type ResolvedTarget } from '../../../src/core/estimate';
import { formatMs } from '../../../src/core/format';
import { statusLine } from '../../../src/extension/surfaces/targetTable';
import { editorAnalysis } from '../helpers/editorAnalysis';
import { memoryIo } from '../helpers/memoryIo';

const EXAMPLES = join(__dirname, '../../../examples');
const PROMPTS = [
  'support.prompt',
  'customer-support.prompty',
  'release-notes.prompt.md',
  'chat-request.json',
  'findings/prompts/rag-oversized.prompt',
  'findings/prompts/support-billing.prompt',
  'findings/prompts/support-personalised-breaker.prompt',
];
const TARGETS = ['llama-3.1-70b@4xh100-sxm', 'openai/gpt-4o', 'anthropic/claude-sonnet-4.6'];
/** The editor's default workload: the interactive profile (8 concurrent requests, 256 output tokens). */
const profile = resolveProfile();
const close = (a: number, b: number, what: string) =>
  assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

function sameDeployment(row: CompareRow, target: ResolvedTarget): boolean {
  if (target.kind === 'provider') return row.target === target.id;
  const d = row.deployment;
  return (
    d?.model === target.model.id &&
    d.hardware === target.hardware.id &&
    d.gpus === target.gpus &&
    d.precision === target.precision
  );
}

/**
 * One set of numbers (#15 items 1-3): for the same prompt, target and scenario, the status bar / hover / CodeLens
 * (estimateTarget on the engine's count and cacheable prefix, as the analyzer calls it), Problems and the workspace
 * report (the findings' cost model), Compare Targets and `prompt-lens estimate` give the same TTFT and cost, and
 * every one of them uses the same cached-token count for the warm case.
 */
describe('one set of numbers on every surface', () => {
  const { tables } = loadTables();
  let warmCompared = 0;

  for (const targetId of TARGETS) {
    for (const file of PROMPTS) {
      it(`${file} on ${targetId}`, async () => {
        const text = readFileSync(join(EXAMPLES, file), 'utf8');
        const target = resolveTarget(parseTargetId(targetId), tables);
        const { engine, count, cacheable, estimate: editor } = await editorAnalysis(file, text, target, tables);
        // Status bar: the headline is the cold TTFT; warm only beside it, labelled.
        const line = statusLine(count.inputTokens, count.exact, editor);
        assert.ok(line.includes(`TTFT ${formatMs(editor.cold.ttftMs.p50)} cold`), line);
        const warmShown = editor.warm && formatMs(editor.warm.ttftMs.p50) !== formatMs(editor.cold.ttftMs.p50);
        if (warmShown) assert.ok(line.includes(` · ${formatMs(editor.warm!.ttftMs.p50)} warm · `), line);
        else assert.ok(!line.includes('warm'), line);
        assert.equal(editor.cold.scenario.concurrency, profile.concurrency);
        assert.equal(editor.cold.scenario.outputTokens, profile.outputTokens);

        // Workspace report and findings: the same cold TTFT and $/call in the same workload.
        const report = engine.report([{ path: file, text }]);
        close(report.files[0]!.ttftMs, editor.cold.ttftMs.p50, 'report TTFT');
        close(report.files[0]!.costUsd!, editor.cold.costUsd!, 'report $/call');
        assert.match(report.target.scenario, new RegExp(`^${profile.concurrency} concurrent requests`));

        // Compare Targets: cold TTFT, the warm cached-token count and $ per 1,000 calls.
        const compared = engine.compare(file, {
          profile,
          calibrations: {},
          ...(cacheable ? { cachedTokens: cacheable.tokens } : {}),
        });
        const row = compared.rows.find((r) => sameDeployment(r, target));
        assert.ok(row, `no Compare row for ${target.id}`);
        assert.equal(row.inputTokens, count.inputTokens, 'Compare tokens');
        close(row.coldTtftMs.p50, editor.cold.ttftMs.p50, 'Compare cold TTFT');
        assert.equal(row.cachedTokens, editor.warm?.scenario.cachedTokens ?? 0, 'Compare cached tokens');
        if (editor.warm) close(row.ttftMs.p50, editor.warm.ttftMs.p50, 'Compare warm TTFT');
        close(row.costPer1kCallsUsd, (editor.warm ?? editor.cold).costPer1kCallsUsd!, 'Compare $/1k calls');
        assert.equal(row.serving, editor.serving);

        // prompt-lens estimate in the same scenario: cold, then warm with the same cached tokens.
        const spec =
          target.kind === 'self-hosted'
            ? ['--model', target.model.id, '--hardware', target.hardware.id, '--gpus', String(target.gpus)]
            : ['--provider', targetId.split('/')[0]!, '--model', targetId.split('/')[1]!];
        const cli = async (cached: number) => {
          const io = memoryIo({ [file]: text });
          const args = ['estimate', file, ...spec, '--concurrency', String(profile.concurrency)];
          args.push('--output-tokens', String(profile.outputTokens), '--cached', String(cached));
          args.push('--json');
          assert.equal(await runCli(args, io), 0, io.stderr);
          return JSON.parse(io.stdout) as {
            inputTokens: number;
            ttftMs: { p50: number };
            costUsd: number;
            costPer1kCallsUsd: number;
            scenario: string;
            serving: string;
          };
        };
        const cold = await cli(0);
        assert.equal(cold.inputTokens, count.inputTokens, 'estimate tokens');
        close(cold.ttftMs.p50, editor.cold.ttftMs.p50, 'estimate cold TTFT');
        close(cold.costUsd, editor.cold.costUsd!, 'estimate cold $/call');
        assert.equal(cold.scenario, `cold, ${profile.concurrency} concurrent`);
        assert.equal(cold.serving, editor.serving);
        if (editor.warm) {
          warmCompared++;
          const warm = await cli(editor.warm.scenario.cachedTokens);
          close(warm.ttftMs.p50, editor.warm.ttftMs.p50, 'estimate warm TTFT');
          close(warm.costPer1kCallsUsd, editor.warm.costPer1kCallsUsd!, 'estimate warm $/1k calls');
        }
      });
    }
  }
  after(() => assert.ok(warmCompared >= 3, `only ${warmCompared} warm cases compared`));
});
