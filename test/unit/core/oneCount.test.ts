import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../src/cli/main';
import { resolveProfile } from '../../../src/core/compare';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { editorAnalysis } from '../helpers/editorAnalysis';
import { memoryIo } from '../helpers/memoryIo';

const EXAMPLES = join(__dirname, '../../../examples');
const PROMPTS = [
  'support.prompt',
  'customer-support.prompty',
  'onboarding-email.prompt',
  'release-notes.prompt.md',
  'code-review.prompt.yml',
  'chat-request.json',
  'findings/prompts/rag-oversized.prompt',
  'findings/prompts/support-billing.prompt',
];
// An exact open-weight tokenizer, an exact API one, and an approximated one.
const TARGETS = ['llama-3.1-70b@4xh100-sxm', 'openai/gpt-4o', 'anthropic/claude-sonnet-4.6'];

/**
 * One count (#15 item 3): for the same prompt, target and settings, the status bar / hover / CodeLens (the analysis
 * engine's count), the workspace report, Compare Targets, `prompt-lens count --target` and `prompt-lens estimate`
 * give the same input tokens.
 */
describe('one count on every surface', () => {
  const { tables } = loadTables();
  let selfHostedCompared = 0;

  for (const targetId of TARGETS) {
    for (const file of PROMPTS) {
      it(`${file} on ${targetId}`, async () => {
        const text = readFileSync(join(EXAMPLES, file), 'utf8');
        const target = resolveTarget(parseTargetId(targetId), tables);
        const { engine, count } = await editorAnalysis(file, text, target, tables);
        const editor = count.inputTokens;
        assert.ok(editor > 0);
        // A self-hosted Llama is billed its rendered chat template, on every surface below.
        if (target.kind === 'self-hosted') assert.equal(count.template?.id, 'llama-3.1', 'the template rendered');

        const report = engine.report([{ path: file, text }]);
        assert.equal(report.files[0]!.tokens, editor, 'workspace report');

        const compare = engine.compare(file, { profile: resolveProfile(), calibrations: {} });
        const rows = compare.rows.filter((r) =>
          target.kind === 'provider' ? r.target === target.id : r.deployment?.model === target.model.id,
        );
        if (target.kind === 'provider') assert.ok(rows.length > 0, `no Compare row for ${target.id}`);
        else selfHostedCompared += rows.length;
        for (const row of rows) assert.equal(row.inputTokens, editor, `Compare row ${row.target}`);

        const io = memoryIo({ [file]: text });
        assert.equal(await runCli(['count', file, '--target', targetId, '--json'], io), 0, io.stderr);
        const [cli] = JSON.parse(io.stdout) as Array<{ inputTokens: number }>;
        assert.equal(cli!.inputTokens, editor, 'prompt-lens count --target');

        const spec = targetId.includes('@')
          ? ['--model', target.id.split('@')[0]!, '--hardware', 'h100-sxm', '--gpus', '4']
          : ['--provider', targetId.split('/')[0]!, '--model', targetId.split('/')[1]!];
        const estimateIo = memoryIo({ [file]: text });
        assert.equal(await runCli(['estimate', file, ...spec, '--json'], estimateIo), 0, estimateIo.stderr);
        const estimated = JSON.parse(estimateIo.stdout) as { inputTokens: number };
        assert.equal(estimated.inputTokens, editor, 'prompt-lens estimate');
      });
    }
  }

  after(() => assert.ok(selfHostedCompared > 0, 'no self-hosted Compare row was checked'));
});
