import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processIo, runCli } from '../../../src/cli/main';
import { decodeFileText } from '../../../src/core/prompt/fileText';
import { memoryIo } from '../helpers/memoryIo';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { buildCalibrationFile, calibrationFileText, type LengthRecord } from '../../../src/core/calibrate/profileFile';
import { correctCount, type TokenCorrection } from '../../../src/core/calibrate/tokenCorrection';
import { sampleCorrection } from '../helpers/tokenCorrection';
import type { PromptCount } from '../../../src/core/count';

const fixture = (name: string): string => readFileSync(join(__dirname, '../../fixtures/prompts', name), 'utf8');

describe('prompt-lens count', () => {
  it("does not count a file's leading byte-order mark, as the editor does not (one rule: decodeFileText)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'prompt-lens-bom-'));
    try {
      const text = 'Hello there.\nuser:\nHi';
      writeFileSync(join(dir, 'bom.prompt'), Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]));
      writeFileSync(join(dir, 'plain.prompt'), text);
      writeFileSync(join(dir, 'two.prompt'), `\uFEFF\uFEFF${text}`);
      let stdout = '';
      const io = { ...processIo(), cwd: dir, out: (t: string) => void (stdout += t), err: () => undefined };
      const files = ['bom.prompt', 'plain.prompt', 'two.prompt'].map((f) => join(dir, f));
      assert.equal(await runCli(['count', '--json', ...files], io), 0);
      const [bom, plain, two] = JSON.parse(stdout) as Array<{ contentTokens: number }>;
      const o200k = getTokenizer('o200k_base');
      assert.equal(bom?.contentTokens, plain?.contentTokens);
      assert.equal(bom?.contentTokens, o200k.count('Hello there.') + o200k.count('Hi'));
      // The BOM would have changed the count, and only the first one is the encoding's.
      assert.notEqual(o200k.count('\uFEFFHello there.'), o200k.count('Hello there.'));
      assert.equal(two?.contentTokens, o200k.count('\uFEFFHello there.') + o200k.count('Hi'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('decodeFileText: UTF-8, one leading BOM dropped, any other U+FEFF kept, invalid bytes as U+FFFD', () => {
    const bytes = (...b: number[]): Uint8Array => Uint8Array.from(b);
    assert.equal(decodeFileText(bytes(0xef, 0xbb, 0xbf, 0x61)), 'a');
    assert.equal(decodeFileText(bytes(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf)), '\uFEFF');
    assert.equal(decodeFileText(bytes(0x61, 0xef, 0xbb, 0xbf)), 'a\uFEFF');
    assert.equal(decodeFileText(bytes(0x61, 0xff, 0x62)), 'a\uFFFDb');
    assert.equal(decodeFileText(undefined), '');
  });

  it('prints per-file counts as JSON with the documented fields', async () => {
    const text = 'System: be brief.\r\nUser: hi  \n';
    const io = memoryIo({ 'a.prompt': text });
    const code = await runCli(['count', 'a.prompt', '--json'], io);
    assert.equal(code, 0);
    const rows = JSON.parse(io.stdout) as Array<Record<string, unknown>>;
    const tokens = getTokenizer('o200k_base').count(text);
    assert.deepEqual(rows, [
      {
        file: 'a.prompt',
        tokenizer: 'o200k_base',
        exact: true,
        contentTokens: tokens,
        inputTokens: tokens + 4 + 3,
        messages: [{ role: 'user', tokens }],
        variables: [],
        errors: [],
        notes: [],
      },
    ]);
  });

  it('picks the tokenizer from the front-matter model and lists unfilled variables', async () => {
    const io = memoryIo({ 's.prompty': fixture('support.prompty'), 'c.json': fixture('chat.json') });
    assert.equal(await runCli(['count', 's.prompty', 'c.json', '--json'], io), 0);
    const [prompty, chat] = JSON.parse(io.stdout) as Array<{
      tokenizer: string;
      variables: string[];
      messages: unknown[];
      errors: unknown[];
    }>;
    assert.equal(prompty?.tokenizer, 'o200k_base');
    assert.deepEqual(prompty?.variables, ['order_id']);
    assert.equal(chat?.tokenizer, 'llama3');
    assert.equal(chat?.messages.length, 3);
  });

  it('--tokenizer overrides; an unknown id lists the valid ones and exits 2', async () => {
    const io = memoryIo({ 'b.txt': 'hello world' });
    assert.equal(await runCli(['count', 'b.txt', '--tokenizer', 'cl100k_base', '--json'], io), 0);
    assert.equal((JSON.parse(io.stdout) as Array<{ tokenizer: string }>)[0]?.tokenizer, 'cl100k_base');
    const bad = memoryIo({ 'b.txt': 'x' });
    assert.equal(await runCli(['count', 'b.txt', '--tokenizer', 'gpt9'], bad), 2);
    assert.match(
      bad.stderr,
      /^prompt-lens count: unknown tokenizer 'gpt9'; valid: o200k_base, cl100k_base, llama3, .*\n$/,
    );
  });

  it('still counts a malformed file and reports its errors', async () => {
    const io = memoryIo({ 'x.json': fixture('broken.json') });
    assert.equal(await runCli(['count', 'x.json'], io), 0);
    assert.match(
      io.stdout,
      /^content {2}input {2}tokenizer +file +notes\n +\d+ +\d+ {2}o200k_base {2}x\.json {2}1 message; 1 problem: JSON: /,
    );
    const tsv = memoryIo({ 'x.json': fixture('broken.json') });
    assert.equal(await runCli(['count', 'x.json', '--tsv'], tsv), 0);
    assert.match(
      tsv.stdout,
      /^content\tinput\texact\ttokenizer\tfile\tnotes\n\d+\t\d+\ttrue\to200k_base\tx\.json\t1 message; 1 problem: JSON: /,
    );
  });

  it('prints an aligned table: numbers right-aligned under a header, one row per file', async () => {
    const io = memoryIo({ 'a.prompt': 'user:\nhello\n', 'long-name.prompt': `user:\n${'word '.repeat(2000)}\n` });
    assert.equal(await runCli(['count', 'a.prompt', 'long-name.prompt'], io), 0);
    const [header, a, long] = io.stdout.trimEnd().split('\n');
    assert.match(header!, /^content {2}input {2}tokenizer +file +notes$/);
    // Right-aligned: every row's input column ends where the header's does.
    const end = header!.indexOf('input') + 'input'.length;
    for (const row of [a!, long!]) assert.match(row.slice(0, end), /\d$/, row);
    assert.match(long!, /2,0\d\d +o200k_base {2}long-name\.prompt/);
  });

  it('every verb answers --help with its usage', async () => {
    for (const verb of [
      'count',
      'estimate',
      'compare',
      'report',
      'bench',
      'calibrate',
      'targets',
      'tokenizers',
      'serve-sim',
    ]) {
      const io = memoryIo({});
      assert.equal(await runCli([verb, '--help'], io), 0, `${verb}: ${io.stderr}`);
      assert.match(io.stdout, new RegExp(`^Usage: prompt-lens ${verb} `), verb);
    }
  });

  it('reports a missing file on one line, still counts the others, and exits 2', async () => {
    const io = memoryIo({ 'b.txt': 'hello world' });
    const code = await runCli(['count', 'missing.prompt', 'b.txt', '--json'], io);
    assert.equal(code, 2);
    assert.equal(io.stderr, 'prompt-lens: cannot read missing.prompt: no such file\n');
    assert.deepEqual(
      (JSON.parse(io.stdout) as Array<{ file: string }>).map((r) => r.file),
      ['b.txt'],
    );
  });

  it('rejects unknown flags and commands with one line and exit 2', async () => {
    const io = memoryIo({});
    assert.equal(await runCli(['count', '--nope', 'x'], io), 2);
    assert.match(io.stderr, /^prompt-lens count: .*--nope.*\n$/);
    const io2 = memoryIo({});
    assert.equal(await runCli(['frobnicate'], io2), 2);
    assert.equal(io2.stderr.split('\n').length, 2);
  });
});

/** A calibration profile of `target`, with a per-endpoint correction as *Export Calibration…* writes it. */
function profileText(target: string, correction?: TokenCorrection, usage = true): string {
  const length = (fraction: number, local: number): LengthRecord => ({
    fraction,
    localTokens: local,
    endpointTokens: usage ? 20 + local : undefined,
    ttftMs: [8 + 0.3 * (20 + local)],
    requests: 1,
    failed: 0,
  });
  const built = buildCalibrationFile({
    endpoint: { name: 'sim', kind: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
    target,
    localTokenizer: 'claude',
    lengths: [length(0.5, 100), length(1, 200)],
    tpotMs: [5],
    date: '2026-12-02',
  });
  assert.ok(built.ok);
  return calibrationFileText({ ...built.file, ...(correction ? { correction } : {}) });
}

describe('prompt-lens count --calibration: the per-endpoint token correction (#22 item 4)', () => {
  const claude = 'anthropic/claude-sonnet-4.6';
  const correction = sampleCorrection();
  const prompt = 'Summarise the attached quarterly report in three bullet points, then list two open risks.';
  const files = (extra: Record<string, string> = {}) =>
    memoryIo({ 'a.prompt': prompt, 'p.json': profileText(claude, correction), ...extra });
  const rows = async (args: string[], io = files()) => {
    assert.equal(await runCli(['count', 'a.prompt', ...args, '--json'], io), 0, io.stderr);
    return JSON.parse(io.stdout) as Array<PromptCount & { notes: string[] }>;
  };

  it("counts the target's approximate count through the profile's correction, as the editor and estimate do", async () => {
    const [local] = await rows(['--target', claude]);
    const [row] = await rows(['--target', claude, '--calibration', 'p.json']);
    assert.equal(local!.tokenizer, 'claude');
    assert.equal(row!.inputTokens, Math.round(1.1 * local!.inputTokens + 10));
    assert.notEqual(row!.inputTokens, local!.inputTokens);
    assert.deepEqual(row, { ...correctCount(local!, correction), notes: row!.notes });
    assert.equal(row!.corrected?.requests, 4);
    assert.equal(row!.corrected?.localTokens, local!.inputTokens);
    assert.match(row!.notes.join('\n'), /^corrected from 4 requests to sim: billed ≈ 1\.1000 × local \+ 10\.0/m);
    // The profile names its target: --calibration alone counts for it.
    assert.deepEqual(await rows(['--calibration', 'p.json']), [row]);
    // The same input tokens `estimate FILE --calibration` predicts from.
    const io = files();
    assert.equal(await runCli(['estimate', 'a.prompt', '--calibration', 'p.json', '--json'], io), 0, io.stderr);
    assert.equal((JSON.parse(io.stdout) as { inputTokens: number }).inputTokens, row!.inputTokens);
  });

  it('marks the corrected count "corrected from N requests" in the table', async () => {
    const io = files();
    assert.equal(await runCli(['count', 'a.prompt', '--calibration', 'p.json'], io), 0, io.stderr);
    const [local] = await rows(['--target', claude]);
    const corrected = Math.round(1.1 * local!.inputTokens + 10);
    assert.match(io.stdout, new RegExp(`≈${corrected} \\(corrected from 4 requests\\)\\s+claude\\s+a\\.prompt`));
  });

  it("without a correction, maps the count through the profile's billed-on-local map, as estimate does", async () => {
    const io = files({ 'q.json': profileText(claude) });
    const [mapped] = await rows(['--calibration', 'q.json'], io);
    const [local] = await rows(['--target', claude]);
    // The profile's lengths were billed 20 tokens over their local counts: billed ≈ 1 × local + 20.
    assert.equal(mapped!.inputTokens, local!.inputTokens + 20);
    assert.equal(mapped!.exact, false);
    assert.equal(mapped!.corrected, undefined);
    assert.match(
      mapped!.notes.join('\n'),
      /endpoint tokens: \d+ claude tokens corrected from 2 requests \(billed ≈ 1\.0000 × local \+ 20\.0\)/,
    );
    const estimated = files({ 'q.json': profileText(claude) });
    assert.equal(await runCli(['estimate', 'a.prompt', '--calibration', 'q.json', '--json'], estimated), 0);
    assert.equal((JSON.parse(estimated.stdout) as { inputTokens: number }).inputTokens, mapped!.inputTokens);
  });

  it('leaves a count it cannot correct as it is and says why', async () => {
    const [none] = await rows(['--calibration', 'q.json'], files({ 'q.json': profileText(claude, undefined, false) }));
    const [local] = await rows(['--target', claude]);
    assert.equal(none!.inputTokens, local!.inputTokens);
    assert.equal(none!.corrected, undefined);
    assert.match(none!.notes.join('\n'), /not corrected: q\.json has no token correction/);
    const llama = 'llama-3.1-8b@h100-sxm';
    const io = files({ 'l.json': profileText(llama, { ...correction, tokenizer: 'llama3' }) });
    const [exact] = await rows(['--calibration', 'l.json'], io);
    assert.equal(exact!.tokenizer, 'llama3');
    assert.equal(exact!.corrected, undefined);
    assert.match(exact!.notes.join('\n'), /not corrected: llama3 is exact/);
  });

  it('refuses a profile of another target, a profile without one and --tokenizer beside it', async () => {
    const other = files();
    assert.equal(await runCli(['count', 'a.prompt', '--target', 'openai/gpt-4o', '--calibration', 'p.json'], other), 2);
    assert.match(other.stderr, /calibrates anthropic\/claude-sonnet-4\.6, not /);
    const built = JSON.parse(profileText(claude, correction)) as Record<string, unknown>;
    delete built.target;
    const untargeted = files({ 'n.json': JSON.stringify(built) });
    assert.equal(await runCli(['count', 'a.prompt', '--calibration', 'n.json'], untargeted), 2);
    assert.match(untargeted.stderr, /n\.json names no target: give --target/);
    const both = files();
    assert.equal(await runCli(['count', 'a.prompt', '--tokenizer', 'claude', '--calibration', 'p.json'], both), 2);
  });
});

describe('prompt-lens tokenizers', () => {
  it('lists the registry with exactness and approximation errors', async () => {
    const io = memoryIo({});
    assert.equal(await runCli(['tokenizers', '--json'], io), 0);
    const rows = JSON.parse(io.stdout) as Array<{
      id: string;
      exact: boolean;
      error?: string;
      chatOverhead: { perMessage: number };
    }>;
    assert.deepEqual(rows.find((r) => r.id === 'o200k_base')?.chatOverhead.perMessage, 4);
    assert.ok(rows.filter((r) => !r.exact).every((r) => r.error));
    const text = memoryIo({});
    await runCli(['tokenizers'], text);
    assert.match(text.stdout, /^claude\tapproximate\t/m);
  });
});
