import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, ensureBuilt, spawnCli } from '../helpers/builtCli';
import { chatChunk, scriptedServer, sse, type ScriptedServer } from '../helpers/scriptedServer';

const KEY = 'sk-canary-7f3a9c1e5b2d4f6a8c0e';

/** Every file under `dir`, recursively, with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [[path, readFileSync(path, 'latin1')] as [string, string]];
  });
}

/** Resolves with the connection error code, or 'connected'. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.setTimeout(2000, () => {
      socket.destroy();
      resolve('timeout');
    });
    socket.on('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('safety of the built CLI', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'prompt-lens-safety-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('an API key echoed back by the endpoint in every way appears in no output or file', async () => {
    const other = await scriptedServer((_req, res) => void res.end('stolen'));
    // Each request gets the next way of echoing the key it was sent.
    let n = 0;
    const server: ScriptedServer = await scriptedServer((req, res) => {
      const sent = String(req.headers.authorization ?? '');
      switch (n++ % 6) {
        case 0:
          res.writeHead(401, { 'content-type': 'application/json', 'x-echo': sent });
          return void res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${sent}` } }));
        case 1:
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return void res.end(sse({ error: { message: `key ${KEY} is revoked` } }));
        case 2:
          res.writeHead(500, { 'content-type': 'text/html' });
          return void res.end(`<html><title>Error for ${KEY}</title><body>${sent}</body></html>`);
        case 3:
          res.writeHead(307, { location: `${other.url.replace('127.0.0.1', 'localhost')}/v1?key=${KEY}` });
          return void res.end();
        case 4:
          res.writeHead(200, { 'content-type': 'text/plain' });
          return void res.end(`you sent ${sent}`);
        default:
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          return void res.end(sse(chatChunk(`echo ${KEY}`), chatChunk(' done'), '[DONE]'));
      }
    });
    try {
      writeFileSync(join(dir, 'p.prompt'), 'Say hi.');
      const env = { ...process.env, PROMPT_LENS_API_KEY: KEY };
      const outputs: string[] = [];
      for (const format of [['--json'], []]) {
        n = 0;
        const run = await cli(
          dir,
          [
            'bench',
            'p.prompt',
            '--base-url',
            `${server.url}/v1`,
            '--model',
            'm',
            '--requests',
            '6',
            '--warmup',
            '0',
            '--concurrency',
            '1',
            ...format,
          ],
          env,
        );
        assert.ok(run.code === 0 || run.code === 1, run.stderr);
        outputs.push(run.stdout, run.stderr);
      }
      assert.equal(server.seen.at(-1)?.headers.authorization, `Bearer ${KEY}`, 'the key was sent');
      assert.equal(other.seen.length, 0, 'the redirect was followed');
      // The run did see the echoes: the errors are there, redacted.
      assert.match(outputs[0] ?? '', /\[redacted\]/);
      for (const [where, text] of [
        ...outputs.map((t, i) => [`output ${i}`, t] as [string, string]),
        ...filesUnder(dir),
      ]) {
        assert.ok(!text.includes(KEY) && !text.includes(KEY.slice(3, 20)), `the key leaked into ${where}`);
      }
    } finally {
      await server.close();
      await other.close();
    }
  });

  it('serve-sim listens on 127.0.0.1 only', async () => {
    const child = spawnCli(dir, ['serve-sim', '--port', '0']);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let err = '';
        child.stderr?.setEncoding('utf8').on('data', (d: string) => {
          err += d;
          const found = /--base-url (http:\/\/\S+)/.exec(err);
          if (found) resolve(found[1] as string);
        });
        child.on('close', () => reject(new Error(`serve-sim exited: ${err}`)));
      });
      const { hostname, port } = new URL(url);
      assert.equal(hostname, '127.0.0.1');
      assert.equal(await tryConnect('127.0.0.1', Number(port)), 'connected');
      // A wildcard listener would also answer on ::1 and on the machine's own addresses.
      const others = [
        '::1',
        ...Object.values(networkInterfaces()).flatMap((list) =>
          (list ?? []).filter((a) => !a.internal && !a.address.startsWith('fe80')).map((a) => a.address),
        ),
      ];
      for (const host of others)
        assert.notEqual(await tryConnect(host, Number(port)), 'connected', `reachable on ${host}`);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
