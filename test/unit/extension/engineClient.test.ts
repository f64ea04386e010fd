import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { parseFindingSettings } from '../../../src/core/findings/settings';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { EngineClient } from '../../../src/extension/analysis/engineClient';

const ENTRY = join(__dirname, '../../../src/extension/analysis/analysis.worker.ts');

/** The real worker entry, loaded through tsx as the tests load everything else. */
const realWorker = () => new Worker(`require('tsx/cjs'); require(${JSON.stringify(ENTRY)});`, { eval: true });

describe('EngineClient (the analysis worker)', function () {
  this.timeout(60_000);
  const clients: EngineClient[] = [];
  const client = (spawn: () => Worker, onExit?: (reason: string) => void) => {
    const c = new EngineClient(spawn, onExit);
    clients.push(c);
    return c;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });

  it('starts no worker until the first call, then answers from the engine in the worker', async () => {
    const engine = client(realWorker);
    assert.equal(engine.running, false);
    const { tables } = loadTables();
    await engine.call('configure', { tables, targets: [resolveTarget(parseTargetId('openai/gpt-4o'), tables)], findings: parseFindingSettings({}).settings, variablePatterns: [] });
    assert.equal(engine.running, true);
    const text = 'system:\nBe brief.\nuser:\nWhat changed in the release notes?\n';
    const counted = await engine.call('count', { key: 'k', file: 'a.prompt', fileName: '/w/a.prompt', text, version: 1, edits: [] });
    assert.equal(counted?.counts.o200k_base?.messages[1]?.tokens, getTokenizer('o200k_base').count('What changed in the release notes?'));
    assert.equal(counted?.parsed.messages.length, 2);
    assert.equal(await engine.call('countText', 'o200k_base', 'hello world'), getTokenizer('o200k_base').count('hello world'));
  });

  it("rejects a call with the engine's own message, and keeps working", async () => {
    const engine = client(realWorker);
    await assert.rejects(engine.call('report', []), /has not been configured/);
    assert.equal(await engine.call('countText', 'o200k_base', 'again'), getTokenizer('o200k_base').count('again'));
  });

  it('fails pending calls when the worker dies, tells the owner, and starts a fresh worker on the next call', async () => {
    let spawned = 0;
    const exits: string[] = [];
    // First a worker that dies on its first message, then the real one.
    const engine = client(
      () => (++spawned === 1 ? new Worker("require('node:worker_threads').parentPort.on('message', () => process.exit(3));", { eval: true }) : realWorker()),
      (reason) => exits.push(reason),
    );
    await assert.rejects(engine.call('countText', 'o200k_base', 'x'), /exited with code 3/);
    assert.deepEqual(exits, ['the analysis worker exited with code 3']);
    assert.equal(engine.running, false);
    assert.equal(await engine.call('countText', 'o200k_base', 'x'), getTokenizer('o200k_base').count('x'));
    assert.equal(spawned, 2);
  });

  it('after dispose, pending and new calls fail instead of hanging', async () => {
    const engine = client(realWorker);
    const pending = assert.rejects(engine.call('countText', 'o200k_base', 'word '.repeat(200_000)), /stopped/);
    await engine.dispose();
    await pending;
    await assert.rejects(engine.call('countText', 'o200k_base', 'x'), /stopped/);
  });
});
