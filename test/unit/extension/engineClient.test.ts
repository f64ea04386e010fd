import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import { parseFindingSettings } from '../../../src/core/findings/settings';
import { getTokenizer } from '../../../src/core/tokenize/registry';
import { EngineClient, type EngineClientOptions } from '../../../src/extension/analysis/engineClient';

const ENTRY = join(__dirname, '../../../src/extension/analysis/analysis.worker.ts');

/** The real worker entry, loaded through tsx as the tests load everything else. */
const realWorker = () => new Worker(`require('tsx/cjs'); require(${JSON.stringify(ENTRY)});`, { eval: true });

describe('EngineClient (the analysis worker)', function () {
  this.timeout(60_000);
  const clients: EngineClient[] = [];
  const client = (spawn: () => Worker, options: EngineClientOptions = {}) => {
    const c = new EngineClient(spawn, options);
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
    await engine.call('configure', {
      tables,
      targets: [resolveTarget(parseTargetId('openai/gpt-4o'), tables)],
      findings: parseFindingSettings({}).settings,
      variablePatterns: [],
      disabledFormats: [],
      assume: {},
      workload: { concurrency: 8, outputTokens: 256 },
    });
    assert.equal(engine.running, true);
    const text = 'system:\nBe brief.\nuser:\nWhat changed in the release notes?\n';
    const counted = await engine.call('count', {
      key: 'k',
      file: 'a.prompt',
      fileName: '/w/a.prompt',
      text,
      version: 1,
      edits: [],
    });
    assert.equal(
      counted?.counts.o200k_base?.messages[1]?.tokens,
      getTokenizer('o200k_base').count('What changed in the release notes?'),
    );
    assert.equal(counted?.parsed.messages.length, 2);
    assert.equal(
      await engine.call('countText', 'o200k_base', 'hello world'),
      getTokenizer('o200k_base').count('hello world'),
    );
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
      () =>
        ++spawned === 1
          ? new Worker("require('node:worker_threads').parentPort.on('message', () => process.exit(3));", {
              eval: true,
            })
          : realWorker(),
      { onExit: (reason) => exits.push(reason) },
    );
    await assert.rejects(engine.call('countText', 'o200k_base', 'x'), /exited with code 3/);
    assert.deepEqual(exits, ['the analysis worker exited with code 3']);
    assert.equal(engine.running, false);
    assert.equal(await engine.call('countText', 'o200k_base', 'x'), getTokenizer('o200k_base').count('x'));
    assert.equal(spawned, 2);
  });

  it('stops restarting a worker that keeps dying, and says so on every call', async () => {
    let spawned = 0;
    const exits: Array<[string, boolean]> = [];
    const dying = () => {
      spawned++;
      return new Worker(
        "require('node:worker_threads').parentPort.on('message', () => { throw new Error('out of sorts'); });",
        { eval: true },
      );
    };
    const engine = client(dying, { onExit: (reason, restarting) => exits.push([reason, restarting]) });
    for (let i = 0; i < 3; i++)
      await assert.rejects(engine.call('countText', 'o200k_base', 'x'), /the analysis worker failed: out of sorts/);
    assert.deepEqual(
      exits.map(([, restarting]) => restarting),
      [true, true, false],
    );
    assert.match(exits[2]![0], /3 times within 10 minutes; not restarted/);
    await assert.rejects(engine.call('countText', 'o200k_base', 'x'), /not restarted: reload the window/);
    assert.equal(spawned, 3, 'no fourth worker');
  });

  it('stops a worker that does not answer in time, and the next call gets a fresh one', async () => {
    let spawned = 0;
    const silent = () =>
      new Worker("require('node:worker_threads').parentPort.on('message', () => { for (;;); });", { eval: true });
    const exits: string[] = [];
    const engine = client(() => (++spawned === 1 ? silent() : realWorker()), {
      timeoutMs: () => (spawned === 1 ? 300 : 60_000),
      onExit: (reason) => exits.push(reason),
    });
    await assert.rejects(
      engine.call('countText', 'o200k_base', 'x'),
      /did not answer countText within 0.3 s and was stopped/,
    );
    assert.equal(exits.length, 1);
    assert.equal(await engine.call('countText', 'o200k_base', 'x'), getTokenizer('o200k_base').count('x'));
  });

  it('after dispose, pending and new calls fail instead of hanging', async () => {
    const engine = client(realWorker);
    const pending = assert.rejects(engine.call('countText', 'o200k_base', 'word '.repeat(200_000)), /stopped/);
    await engine.dispose();
    await pending;
    await assert.rejects(engine.call('countText', 'o200k_base', 'x'), /stopped/);
  });
});
