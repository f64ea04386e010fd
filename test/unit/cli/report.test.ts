import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Dirent } from 'node:fs';
import { listFiles, runCli } from '../../../src/cli/main';
import type { PromptReport } from '../../../src/core/findings/report';
import { memoryIo } from '../helpers/memoryIo';

const FIXTURES = join(__dirname, '../../../examples/findings/prompts');

/** The fixture workspace under /ws, plus files the report must skip. */
function workspace(extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of readdirSync(FIXTURES)) files[`/ws/prompts/${name}`] = readFileSync(join(FIXTURES, name), 'utf8');
  files['/ws/node_modules/pkg/prompts/x.md'] = '<context>ignored</context>';
  files['/ws/notes.md'] = 'not a prompt file';
  return { ...files, ...extra };
}

async function report(args: string[], files = workspace()) {
  const io = memoryIo(files);
  const code = await runCli(['report', ...args], io);
  return { code, io };
}

describe('prompt-lens report', () => {
  it('prints the documented JSON with every fixture finding at its line', async () => {
    const { code, io } = await report(['/ws', '--json']);
    assert.equal(code, 0);
    assert.equal(io.stderr, '');
    const json = JSON.parse(io.stdout) as PromptReport;
    assert.deepEqual(Object.keys(json), [
      'schemaVersion',
      'target',
      'files',
      'cacheGroups',
      'findings',
      'instructions',
      'summary',
    ]);
    assert.equal(json.schemaVersion, 1);
    assert.deepEqual(
      json.files.map((f) => f.file),
      [
        'prompts/rag-oversized.prompt',
        'prompts/rag-suppressed.prompt',
        'prompts/support-billing.prompt',
        'prompts/support-personalised-breaker.prompt',
        'prompts/support-returns-near-miss.prompt',
        'prompts/support-shipping.prompt',
      ],
    );
    const at = (code: string) =>
      json.findings.filter((f) => f.code === code).map((f) => `${f.file}:${f.range.startPosition.line}`);
    assert.deepEqual(at('rag-budget'), ['prompts/rag-oversized.prompt:4']);
    assert.deepEqual(at('rag-duplicate'), ['prompts/rag-oversized.prompt:47', 'prompts/rag-oversized.prompt:50']);
    assert.deepEqual(at('cache-breaker'), ['prompts/support-personalised-breaker.prompt:2']);
    assert.deepEqual(at('prefix-cache'), ['prompts/support-billing.prompt:133', 'prompts/support-shipping.prompt:133']);
    assert.ok(at('cache-near-miss').includes('prompts/support-returns-near-miss.prompt:2'));
    assert.equal(json.cacheGroups.length, 1);
    assert.deepEqual(
      json.cacheGroups[0]!.members.map((m) => m.file),
      ['prompts/support-billing.prompt', 'prompts/support-shipping.prompt'],
    );
    assert.ok(json.cacheGroups[0]!.sharedTokens > 1900 && json.cacheGroups[0]!.sharedTokens < 2200);
    // One TTFT per file: a group member's cold TTFT, and its prefix-cache finding's, are the file's own (its count
    // with the chat template, as the status bar has it; they were figured without the template's tokens).
    for (const m of json.cacheGroups[0]!.members) {
      const own = json.files.find((f) => f.file === m.file)!;
      assert.equal(m.coldTtftMs, own.ttftMs, m.file);
      const finding = json.findings.find((f) => f.code === 'prefix-cache' && f.file === m.file)!;
      assert.equal(finding.data?.coldTtftMs, own.ttftMs, m.file);
    }
    assert.deepEqual(json.summary, { files: 6, error: 0, warning: 2, information: json.findings.length - 2 });
  });

  it('exits 1 with --fail-on at or below the worst finding, 0 above it', async () => {
    assert.equal((await report(['/ws', '--fail-on', 'warning'])).code, 1);
    assert.equal((await report(['/ws', '--fail-on', 'error'])).code, 0);
    const tiny = { '/ws/prompts/a.prompt': 'user:\n' + 'word '.repeat(50) };
    assert.equal((await report(['/ws', '--fail-on', 'error', '--target', 'openai/gpt-4o'], tiny)).code, 0);
  });

  it('applies --disable and the thresholds', async () => {
    const { io } = await report([
      '/ws',
      '--json',
      '--disable',
      'rag-budget,cache-breaker',
      '--rag-max-tokens',
      '100000',
    ]);
    const codes = new Set((JSON.parse(io.stdout) as PromptReport).findings.map((f) => f.code));
    assert.equal(codes.has('rag-budget'), false);
    assert.equal(codes.has('cache-breaker'), false);
    assert.equal(codes.has('prefix-cache'), true);
  });

  it('prints a table with the findings as file:line:column', async () => {
    const { code, io } = await report(['/ws']);
    assert.equal(code, 0);
    assert.match(io.stdout, /^FILE\s+TOKENS\s+TTFT\s+COST\/CALL\s+RAG TOKENS\n/);
    assert.match(
      io.stdout,
      /warning {5}prompts\/rag-oversized\.prompt:4:1 {2}rag-budget {2}Retrieved context: [\d,]+ tokens \(\d+% of the prompt\) adds ≈/,
    );
    assert.match(io.stdout, /\n6 prompt files · 0 errors · 2 warnings · \d+ information\n$/);
  });

  it('exits 2 on usage errors with one line', async () => {
    for (const args of [
      ['/ws', '--fail-on', 'info'],
      ['/ws', '--target', 'nope'],
      ['/ws', '--disable', 'rag'],
      ['/missing'],
      ['/ws', '/other'],
      ['/ws', '--rag-max-share', '2'],
      ['/ws', '--include', '**/*e*e*e*.prompt'],
    ]) {
      const { code, io } = await report(args);
      assert.equal(code, 2, args.join(' '));
      assert.equal(io.stderr.split('\n').length, 2, io.stderr);
      assert.match(io.stderr, /^prompt-lens report: /);
    }
  });

  it('a sub-directory it cannot read is named and skipped; the rest is reported and the exit is 2 (issue 16)', async () => {
    const io = memoryIo(workspace());
    const listFiles = io.listFiles.bind(io);
    io.listFiles = async (dir, onUnreadable) => {
      onUnreadable('private');
      return listFiles(dir, onUnreadable);
    };
    const code = await runCli(['report', '/ws', '--json'], io);
    assert.equal(code, 2);
    assert.equal(io.stderr, 'prompt-lens: cannot read directory private; skipped\n');
    assert.ok((JSON.parse(io.stdout) as PromptReport).files.length > 5);
  });

  it('the file lister skips an unreadable sub-directory and rejects an unreadable root', async () => {
    const tree: Record<string, Array<[string, boolean]>> = {
      '/r': [
        ['a.prompt', false],
        ['locked', true],
        ['open', true],
      ],
      '/r/open': [['b.prompt', false]],
    };
    const entry = ([name, dir]: [string, boolean]) => ({ name, isDirectory: () => dir, isFile: () => !dir }) as Dirent;
    const read = async (path: string) => {
      const entries = tree[path];
      if (!entries) throw Object.assign(new Error(`EACCES: ${path}`), { code: 'EACCES' });
      return entries.map(entry);
    };
    const skipped: string[] = [];
    assert.deepEqual(await listFiles('/r', (d) => skipped.push(d), read), ['a.prompt', 'open/b.prompt']);
    assert.deepEqual(skipped, ['locked']);
    await assert.rejects(
      listFiles('/nope', () => assert.fail('the root is not skipped'), read),
      /EACCES/,
    );
  });
});
