import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchResult } from '../../../src/core/bench/result';
import { BenchHistory, promptHash } from '../../../src/extension/bench/history';
import { HostConsent } from '../../../src/extension/bench/hostConsent';

function result(startedAt: string, partial = false): BenchResult {
  return {
    schemaVersion: 1,
    startedAt,
    partial,
    modes: [],
    endpoint: { name: 'e', kind: 'openai-chat', baseUrl: 'http://127.0.0.1:1/v1', model: 'm' },
    options: { requests: 1, warmup: 0, cache: 'cold', maxTokens: 1, timeoutMs: 1 },
    slo: { ttftMs: 500, tpotMs: 30 },
  };
}

describe('benchmark history', () => {
  it('keeps one file per run, newest first, and concurrent saves never clobber each other', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-history-'));
    const history = new BenchHistory(root);
    const hash = promptHash('prompt text');
    const stamps = ['2026-11-30T10:00:00.000Z', '2026-11-30T10:00:00.000Z', '2026-11-30T11:00:00.000Z'];
    await Promise.all(
      stamps.map((s, i) =>
        history.save({ schemaVersion: 1, promptHash: hash, prompt: 'a.prompt', result: result(s, i === 1) }),
      ),
    );
    const { entries, problems } = await history.list(hash);
    assert.deepEqual(problems, []);
    assert.equal(entries.length, 3, 'two runs with the same start time are both kept');
    assert.equal(entries[0]!.result.startedAt, '2026-11-30T11:00:00.000Z');
    assert.deepEqual(
      (await history.list(hash, 1)).entries.map((e) => e.result.startedAt),
      ['2026-11-30T11:00:00.000Z'],
      'a limit reads the newest only',
    );
    assert.equal(
      readdirSync(join(root, 'history', hash)).filter((f) => f.endsWith('.tmp')).length,
      0,
      'no temp files left',
    );
  });

  it('sets a corrupt or truncated file aside (renamed with a timestamp) and reports it, never overwriting it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pl-history-'));
    const history = new BenchHistory(root);
    const hash = promptHash('x');
    await history.save({ schemaVersion: 1, promptHash: hash, prompt: 'x', result: result('2026-11-30T09:00:00.000Z') });
    const dir = join(root, 'history', hash);
    writeFileSync(join(dir, '2026-11-30T12-00-00-000Z-abc.json'), '{"schemaVersion":1,"result":{"modes":[');
    const { entries, problems } = await history.list(hash);
    assert.equal(entries.length, 1);
    assert.equal(problems.length, 1);
    assert.match(problems[0]!.movedTo, /\.corrupt-\d{4}-/);
    assert.ok(
      readdirSync(dir).some((f) => f.includes('.corrupt-')),
      'the bad file is kept under a new name',
    );
    assert.equal((await history.list(hash)).problems.length, 0, 'reported once');
  });

  it('hashes prompts by content', () => {
    assert.equal(promptHash('a'), promptHash('a'));
    assert.notEqual(promptHash('a'), promptHash('b'));
  });
});

describe('API key host consent', () => {
  function store() {
    const data = new Map<string, unknown>();
    return { get: (k: string) => data.get(k), update: async (k: string, v: unknown) => void data.set(k, v) };
  }

  it('asks once per (key, host) and remembers the answer', async () => {
    const asked: string[] = [];
    const consent = new HostConsent(
      store(),
      async (name, host) => (asked.push(`${name} ${host}`), host === 'https://good.example' ? 'allow' : 'deny'),
    );
    assert.equal(await consent.mayReceiveKey('a', 'https://good.example/v1'), true);
    assert.equal(await consent.mayReceiveKey('a', 'https://good.example/other'), true);
    assert.equal(await consent.mayReceiveKey('c', 'https://evil.example/v1'), false);
    assert.equal(await consent.mayReceiveKey('c', 'https://evil.example/v1'), false);
    assert.equal(await consent.mayReceiveKey('a', 'http://good.example/v1'), false, 'another scheme is another host');
    assert.deepEqual(asked, ['a https://good.example', 'c https://evil.example', 'a http://good.example']);
  });

  it("a host approved for one endpoint's key is asked again for another key (issue 16)", async () => {
    const asked: string[] = [];
    const consent = new HostConsent(store(), async (name) => (asked.push(name), name === 'local' ? 'allow' : 'deny'));
    assert.equal(await consent.mayReceiveKey('local', 'http://127.0.0.1:8000/v1'), true);
    // A workspace endpoint named like the user's `openai` one, pointed at the approved host.
    assert.equal(await consent.mayReceiveKey('openai', 'http://127.0.0.1:8000/v1'), false);
    assert.deepEqual(asked, ['local', 'openai']);
  });

  it('a dismissed question is not remembered; an answer is', async () => {
    let answer: 'allow' | undefined;
    const s = store();
    const consent = new HostConsent(s, async () => answer);
    assert.equal(await consent.mayReceiveKey('a', 'https://h.example'), false);
    answer = 'allow';
    assert.equal(await consent.mayReceiveKey('a', 'https://h.example'), true);
    answer = undefined;
    assert.equal(await consent.mayReceiveKey('a', 'https://h.example/v1'), true, 'remembered for the origin');
    assert.equal(await consent.mayReceiveKey('b', 'https://h.example/v1'), false, 'not for another key');
  });

  it('ignores tampered stored decisions', async () => {
    const s = store();
    await s.update('promptLens.keyHosts', { 'https://h.example': 'yes please' });
    const consent = new HostConsent(s, async () => 'deny');
    assert.equal(await consent.mayReceiveKey('a', 'https://h.example'), false);
  });
});
