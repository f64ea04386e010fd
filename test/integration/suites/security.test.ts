import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { BenchResult } from '../../../src/core/bench/result';
import { clickWorkbenchButton, extensionApi, openPrompt, queryWebviews, waitFor, workspaceFile } from '../helpers';

const KEY = 'sk-prompt-lens-TESTKEY-0123456789abcdef';
const XSS = '<img src=x onerror="window.__promptLensXss=1"></script><script>window.__promptLensXss=1</script>';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('security: hostile endpoints, escaping and secrets', () => {
  let server: Server;
  const authHeaders: string[] = [];
  const config = () => vscode.workspace.getConfiguration('promptLens');

  before(async () => {
    // A hostile endpoint: echoes the key back and answers with markup in its error body.
    server = createServer((req, res) => {
      authHeaders.push(String(req.headers.authorization ?? ''));
      req.resume();
      res.writeHead(500, { 'content-type': 'text/html' }).end(`${XSS} your key was ${req.headers.authorization ?? ''}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    await config().update(
      'endpoints',
      [{ name: XSS, baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }],
      vscode.ConfigurationTarget.Workspace,
    );
    await config().update('benchmark.requests', 3, vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.concurrency', [1], vscode.ConfigurationTarget.Workspace);
    await config().update('benchmark.cache', 'cold', vscode.ConfigurationTarget.Workspace);
    await vscode.commands.executeCommand('promptLens.setApiKey', XSS, KEY);
  });

  after(async () => {
    await vscode.commands.executeCommand('promptLens.clearApiKey', XSS);
    server?.close();
  });

  it('asks before sending the key to a new host, escapes markup, and leaks the key nowhere', async () => {
    const editor = await openPrompt('support.prompt');
    const run = vscode.commands.executeCommand<BenchResult>('promptLens.benchmarkPrompt', editor.document.uri, XSS);
    // The key goes nowhere until the user allows this host in the modal dialog: the requests seen
    // while the dialog is up, read just before it is clicked, are none.
    let beforeConsent = -1;
    await waitFor(
      'the consent dialog',
      async () => {
        const seen = authHeaders.length;
        if (!(await clickWorkbenchButton('consent', 'Send key'))) return undefined;
        beforeConsent = seen;
        return true;
      },
      20_000,
    );
    assert.equal(beforeConsent, 0, 'no request before consent');
    const result = await run;
    assert.ok(result);
    assert.ok(
      authHeaders.length > 0 && authHeaders.every((h) => h === `Bearer ${KEY}`),
      'the key was sent, as the endpoint kind expects',
    );
    const errors = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests.map((r) => r.error?.message ?? '')));
    assert.ok(
      errors.every((e) => e.length > 0 && !e.includes(KEY)),
      'errors carry the endpoint message with the key redacted',
    );
    const logged = (await extensionApi()).logLines();
    assert.ok(
      logged.some((l) => l.startsWith('benchmark of ') && l.includes('failed')),
      'the run is in the output channel',
    );
    assert.ok(
      logged.every((l) => !l.includes(KEY)),
      'the key reached the output channel',
    );

    // Rendered as text in real Chromium, and no injected script ran.
    const shown = await waitFor(
      'the error list in the results view',
      async () => {
        const found = await queryWebviews('xss-errors', '[data-test=errors] li');
        return found.texts.length > 0 ? found : undefined;
      },
      20_000,
    );
    assert.equal(shown.scripted, false, 'an injected script ran in a webview');
    assert.ok(
      shown.texts.some((t) => t.includes('<img src=x')),
      'markup is shown as literal text',
    );
    const page = await queryWebviews('xss-page', 'body');
    assert.equal(page.scripted, false);
    assert.ok(
      page.texts.every((t) => !t.includes(KEY)),
      'the key reached the webview',
    );

    // Everything the run produced: history, exports, the state posted to the webview.
    const dir = workspaceFile('.').fsPath;
    await vscode.commands.executeCommand('promptLens.exportBenchmark', 'json', join(dir, 'sec.json'));
    await vscode.commands.executeCommand('promptLens.exportBenchmark', 'csv', join(dir, 'sec.csv'));
    const api = await extensionApi();
    const produced = [
      ...filesUnder(api.historyRoot()).map((f) => readFileSync(f, 'utf8')),
      readFileSync(join(dir, 'sec.json'), 'utf8'),
      readFileSync(join(dir, 'sec.csv'), 'utf8'),
      JSON.stringify(api.resultsState()),
    ];
    for (const text of produced)
      assert.ok(!text.includes(KEY) && !text.includes('TESTKEY'), 'the key appears in something the run produced');
    const settings = readFileSync(workspaceFile('.vscode/settings.json').fsPath, 'utf8');
    assert.ok(!settings.includes(KEY), 'the key is not in settings');
  });

  it('the Compare Targets view shows a hostile file name as text', async () => {
    const name = 'findings/<img src=x onerror=window.__promptLensXss=1>.prompt';
    await vscode.workspace.fs.writeFile(
      workspaceFile(name),
      new TextEncoder().encode('system:\nBe brief.\nuser:\nHi </script><script>window.__promptLensXss=1</script>\n'),
    );
    const state = await vscode.commands.executeCommand<{ promptName: string }>(
      'promptLens.compareTargets',
      workspaceFile(name),
    );
    assert.ok(state?.promptName.includes('<img'));
    const title = await waitFor(
      'compare view title',
      async () => {
        const found = await queryWebviews('xss-compare', 'body');
        return found.texts.some((t) => t.includes('<img src=x')) ? found : undefined;
      },
      20_000,
    );
    assert.equal(title.scripted, false);
  });
});
