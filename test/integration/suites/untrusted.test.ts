import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import * as vscode from 'vscode';
import { EXTENSION_ID, openPrompt } from '../helpers';

// Runs in the harness's second session: the same extension in a workspace that is NOT trusted.
describe('untrusted workspace', () => {
  let server: Server;
  let requests = 0;

  before(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(8799, '127.0.0.1', resolve));
  });

  after(() => server?.close());

  it('is restricted, and the extension still activates (limited support)', async () => {
    assert.equal(vscode.workspace.isTrusted, false);
    await openPrompt('support.prompt');
    const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
    await extension.activate();
    assert.equal(extension.isActive, true);
  });

  it('refuses to benchmark, and never calls the endpoint the workspace settings name', async () => {
    const editor = await openPrompt('support.prompt');
    const result = await vscode.commands.executeCommand(
      'promptLens.benchmarkPrompt',
      editor.document.uri,
      'workspace-endpoint',
    );
    assert.equal(result, undefined);
    const calibration = await vscode.commands.executeCommand(
      'promptLens.calibrateEndpoint',
      editor.document.uri,
      'workspace-endpoint',
    );
    assert.equal(calibration, undefined);
    assert.equal(requests, 0);
  });
});
