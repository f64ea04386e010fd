import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cli, ensureBuilt } from '../helpers/builtCli';

const ROOT = resolve(__dirname, '../../..');
const EXAMPLES = join(ROOT, 'examples');
const PROMPT = 'customer-support.prompty';
const LONG = 'long-system.prompt';

function text(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

describe('prompt-lens mcp (the built CLI, the SDK client over stdio)', function () {
  this.timeout(120_000);
  let base: string;
  let root: string;
  let client: Client;
  let cliPath: string;

  before(async () => {
    cliPath = ensureBuilt();
    base = mkdtempSync(join(tmpdir(), 'prompt-lens-mcp-'));
    root = join(base, 'root');
    mkdirSync(join(root, 'prompts'), { recursive: true });
    for (const name of [PROMPT, 'code-review.prompt.yml', 'support.prompt'])
      copyFileSync(join(EXAMPLES, name), join(root, 'prompts', name));
    // A long system prompt repeated on every call: over the providers' 1,024-token caching minimum.
    const rules = Array.from({ length: 150 }, (_, i) => `Rule ${i + 1}: answer about product area ${i} precisely.`);
    writeFileSync(join(root, 'prompts', LONG), `system:\n${rules.join('\n')}\n\nuser:\nWhere is my invoice?\n`);
    writeFileSync(join(base, 'secret.prompt'), 'user: the secret outside the root\n');
    symlinkSync(join(base, 'secret.prompt'), join(root, 'prompts', 'link.prompt'));
    client = new Client({ name: 'mcp-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [cliPath, 'mcp', '--root', root],
        cwd: base,
        stderr: 'pipe',
      }),
    );
  });
  after(async () => {
    await client?.close();
    rmSync(base, { recursive: true, force: true });
  });

  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<CallToolResult>;

  it('initializes and lists the five tools, each with a JSON input schema', async () => {
    assert.equal(client.getServerVersion()?.name, 'prompt-latency-lens');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      'analyzePrompt',
      'compareTargets',
      'count',
      'estimate',
      'workspaceReport',
    ]);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.ok(tool.description && tool.description.length > 40, tool.name);
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
    }
    const analyze = tools.find((t) => t.name === 'analyzePrompt')!;
    assert.deepEqual(analyze.inputSchema.required, ['path']);
  });

  it('count equals `prompt-lens count --json` for the same file', async () => {
    const result = await call('count', { path: `prompts/${PROMPT}` });
    assert.notEqual(result.isError, true, text(result));
    const run = await cli(root, ['count', '--json', `prompts/${PROMPT}`]);
    assert.equal(run.code, 0, run.stderr);
    const [row] = JSON.parse(run.stdout) as Array<Record<string, unknown>>;
    const { file: _file, notes: _notes, ...expected } = row!;
    const { file, ...got } = result.structuredContent!;
    assert.equal(file, `prompts/${PROMPT}`);
    assert.deepEqual(got, expected);
    assert.ok((got.inputTokens as number) > 0);
    assert.match(text(result), new RegExp(`${(got.inputTokens as number).toLocaleString('en-US')} input tokens`));
  });

  it('estimate equals `prompt-lens estimate --json` (self-hosted and provider)', async () => {
    for (const [target, flags] of [
      ['llama-3.1-70b@4xh100-sxm', ['--model', 'llama-3.1-70b', '--hardware', 'h100-sxm', '--gpus', '4']],
      ['openai/gpt-4o', ['--provider', 'openai', '--model', 'gpt-4o']],
    ] as const) {
      const result = await call('estimate', { path: `prompts/${PROMPT}`, target, outputTokens: 300, concurrency: 4 });
      assert.notEqual(result.isError, true, text(result));
      const run = await cli(root, [
        'estimate',
        `prompts/${PROMPT}`,
        ...flags,
        '--output-tokens',
        '300',
        '--concurrency',
        '4',
        '--json',
      ]);
      assert.equal(run.code, 0, run.stderr);
      const expected = JSON.parse(run.stdout) as Record<string, unknown>;
      const got = result.structuredContent!;
      for (const key of [
        'target',
        'tokenizer',
        'tokensExact',
        'inputTokens',
        'outputTokens',
        'concurrency',
        'ttftMs',
        'coldTtftMs',
        'ttftAtConcurrencyMs',
        'tpotMs',
        'e2eMs',
        'costUsd',
        'costPer1kCallsUsd',
        'errors',
      ])
        assert.deepEqual(got[key], expected[key], `${target} ${key}`);
    }
  });

  it("analyzePrompt gives each target's cold figures as estimate does, and the findings", async () => {
    const result = await call('analyzePrompt', {
      path: `prompts/${PROMPT}`,
      scenario: { concurrency: 4, outputTokens: 300 },
    });
    assert.notEqual(result.isError, true, text(result));
    const data = result.structuredContent as {
      inputTokens: number;
      profile: { concurrency: number; outputTokens: number };
      targets: Array<{
        id: string;
        inputTokens: number;
        ttftMs: { cold: unknown; warm: unknown };
        costPerCallUsd: { cold: number };
        tpotMs: unknown;
      }>;
      findings: unknown[];
    };
    assert.deepEqual([data.profile.concurrency, data.profile.outputTokens], [4, 300]);
    // The file's front matter names gpt-4o: it becomes the primary target, as in the hover.
    assert.equal(data.targets[0]?.id, 'openai/gpt-4o');
    assert.match(data.targets[1]?.id ?? '', /^llama-3\.1-70b@4xh100-sxm/);
    const run = await cli(root, [
      'estimate',
      `prompts/${PROMPT}`,
      '--provider',
      'openai',
      '--model',
      'gpt-4o',
      '--output-tokens',
      '300',
      '--concurrency',
      '4',
      '--json',
    ]);
    const expected = JSON.parse(run.stdout) as Record<string, unknown>;
    const gpt = data.targets[0]!;
    assert.equal(gpt.inputTokens, expected.inputTokens);
    assert.deepEqual(gpt.ttftMs.cold, expected.coldTtftMs);
    assert.deepEqual(gpt.tpotMs, expected.tpotMs);
    assert.equal(gpt.costPerCallUsd.cold, expected.costUsd);
    assert.match(text(result), /TTFT cold .*; TPOT .*\/call/);
    assert.match(text(result), /Findings/);
  });

  it("the README's agent example is this server's answer, line by line ('[…]' marks a cut)", async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const example =
      /an agent calls `analyzePrompt`\s+`(\{.*?\})` and reads \(real answer\):\n\s*```\n([\s\S]*?)\n\s*```/.exec(
        readme,
      );
    assert.ok(example, 'the README shows an analyzePrompt call and its answer');
    const args = JSON.parse(example[1]!) as { path: string };
    // The example names the file in examples/; this root holds the same file under prompts/.
    const result = await call('analyzePrompt', { ...args, path: args.path.replace('examples/', 'prompts/') });
    const answer = text(result).split('\n');
    const shown = example[2]!.split('\n').map((l) => l.replace(/^ {2}/, ''));
    for (const [i, line] of shown.entries()) {
      const got = answer[i]!.replace('prompts/', 'examples/');
      const fix = `README line ${JSON.stringify(line)} is not the answer's ${JSON.stringify(got)}: paste the new answer`;
      if (line.endsWith('[…]')) assert.ok(got.startsWith(line.slice(0, -'[…]'.length)), fix);
      else assert.equal(line, got, fix);
    }
  });

  it('analyzePrompt: a long system prompt is the cacheable prefix and warm TTFT is shorter', async () => {
    const result = await call('analyzePrompt', { path: `prompts/${LONG}`, targets: ['openai/gpt-4o'] });
    assert.notEqual(result.isError, true, text(result));
    const data = result.structuredContent as {
      cacheable: { source: string; tokens: number } | null;
      targets: Array<{ cachedTokens: number; ttftMs: { cold: { p50: number }; warm: { p50: number } | null } }>;
    };
    assert.equal(data.cacheable?.source, 'system prompt');
    const [gpt] = data.targets;
    // The provider caches whole blocks of the prefix: at most the cacheable tokens, most of them.
    assert.ok(gpt!.cachedTokens > 0.9 * data.cacheable!.tokens && gpt!.cachedTokens <= data.cacheable!.tokens);
    assert.ok(gpt!.ttftMs.warm && gpt!.ttftMs.warm.p50 < gpt!.ttftMs.cold.p50);
    assert.match(text(result), /TTFT cold .*, warm .*; TPOT/);
  });

  it('compareTargets ranks targets under the scenario profile', async () => {
    const result = await call('compareTargets', {
      path: `prompts/${PROMPT}`,
      scenario: { profile: 'batch' },
      limit: 3,
    });
    assert.notEqual(result.isError, true, text(result));
    const data = result.structuredContent as { profile: { name: string }; rows: unknown[]; totalRows: number };
    assert.equal(data.profile.name, 'batch');
    assert.equal(data.rows.length, 3);
    assert.ok(data.totalRows > 3);
    assert.match(text(result), /targets meet the batch SLO/);
  });

  it('workspaceReport covers the prompt files under the root, as `prompt-lens report --json` does', async () => {
    const result = await call('workspaceReport', {});
    assert.notEqual(result.isError, true, text(result));
    const run = await cli(root, ['report', '--json', '.']);
    const expected = JSON.parse(run.stdout) as { summary: unknown; findings: unknown[] };
    const data = result.structuredContent as { summary: unknown; totalFindings: number };
    assert.deepEqual(data.summary, expected.summary);
    assert.equal(data.totalFindings, expected.findings.length);
  });

  it('refuses paths outside the root: relative, absolute, and through a symbolic link', async () => {
    for (const path of ['../secret.prompt', join(base, 'secret.prompt'), 'prompts/link.prompt']) {
      const result = await call('count', { path });
      assert.equal(result.isError, true, path);
      assert.match(text(result), /outside the root/, path);
      assert.doesNotMatch(text(result), /the secret/);
    }
    const report = await call('workspaceReport', { dir: '..' });
    assert.equal(report.isError, true);
    assert.match(text(report), /outside the root/);
  });

  it('answers malformed calls with an error and keeps serving', async () => {
    const wrongType = await call('count', { path: 42 }).catch((error: Error) => error);
    assert.ok(wrongType instanceof Error || wrongType.isError === true);
    assert.match(wrongType instanceof Error ? wrongType.message : text(wrongType), /path/);
    const extra = await call('estimate', { path: `prompts/${PROMPT}`, target: 'openai/gpt-4o', bogus: 1 }).catch(
      (error: Error) => error,
    );
    assert.ok(extra instanceof Error || extra.isError === true);
    const unknownTarget = await call('estimate', { path: `prompts/${PROMPT}`, target: 'nobody/nothing' });
    assert.equal(unknownTarget.isError, true);
    const unknownTool = await call('nope', {}).catch((error: Error) => error);
    assert.ok(unknownTool instanceof Error || unknownTool.isError === true);
    assert.equal((await client.listTools()).tools.length, 5);
  });

  it('a line that is not JSON-RPC does not stop the server', async () => {
    const child = spawn(process.execPath, [cliPath, 'mcp', '--root', root], { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
      child.stdin.write('this is not json\n{"jsonrpc":"2.0","id":"x","method":"tools/list","params":"bad"}\n');
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`,
      );
      const seen: Array<{ id?: unknown; result?: { serverInfo?: { name: string } }; error?: unknown }> = [];
      while (!seen.some((m) => m.id === 1)) {
        const next = await replies.next();
        assert.equal(next.done, false, 'the server ended before answering');
        seen.push(JSON.parse(next.value as string) as (typeof seen)[number]);
      }
      assert.equal(seen.find((m) => m.id === 1)?.result?.serverInfo?.name, 'prompt-latency-lens');
      const bad = seen.find((m) => m.id === 'x');
      if (bad) assert.ok(bad.error, 'a request with malformed params is answered with an error');
    } finally {
      child.kill();
    }
  });
});
