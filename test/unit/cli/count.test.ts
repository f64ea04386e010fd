import assert from 'node:assert/strict';
import { runCli } from '../../../src/cli/main';
import { memoryIo } from '../helpers/memoryIo';
import { getTokenizer } from '../../../src/core/tokenize/registry';

describe('prompt-lens count', () => {
  it('prints per-file counts as JSON with the documented fields', async () => {
    const text = 'System: be brief.\r\nUser: hi  \n';
    const io = memoryIo({ 'a.prompt': text });
    const code = await runCli(['count', 'a.prompt', '--json'], io);
    assert.equal(code, 0);
    const rows = JSON.parse(io.stdout) as Array<Record<string, unknown>>;
    assert.deepEqual(rows, [{ file: 'a.prompt', tokenizer: 'o200k_base', exact: true, contentTokens: getTokenizer('o200k_base').count(text) }]);
  });

  it('reports a missing file on one line, still counts the others, and exits 2', async () => {
    const io = memoryIo({ 'b.txt': 'hello world' });
    const code = await runCli(['count', 'missing.prompt', 'b.txt', '--json'], io);
    assert.equal(code, 2);
    assert.equal(io.stderr, 'prompt-lens: cannot read missing.prompt: no such file\n');
    assert.deepEqual((JSON.parse(io.stdout) as Array<{ file: string }>).map((r) => r.file), ['b.txt']);
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
