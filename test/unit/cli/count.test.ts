import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processIo, runCli } from '../../../src/cli/main';
import { decodeFileText } from '../../../src/core/prompt/fileText';
import { memoryIo } from '../helpers/memoryIo';
import { getTokenizer } from '../../../src/core/tokenize/registry';

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
