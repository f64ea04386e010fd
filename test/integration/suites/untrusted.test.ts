import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import * as vscode from 'vscode';
import { readFileSync } from 'node:fs';
import { loadTables, parseTargetId, resolveTarget } from '../../../src/core/estimate';
import {
  EXTENSION_ID,
  assertHoverRow,
  extensionApi,
  invokeAgentTool,
  openPrompt,
  promptLensHover,
  workspaceFile,
} from '../helpers';

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

  it("still reads a prompt's front-matter workload profile (file content, read by the analysis worker)", async () => {
    const api = await extensionApi();
    const content = '---\nprofile:\n  profile: batch\n  concurrency: 3\n---\nuser:\nSummarise it.\n';
    const document = await vscode.workspace.openTextDocument({ language: 'prompty', content });
    const analysis = (await api.analysis(document))!;
    assert.equal(analysis.profile.name, 'batch');
    assert.equal(analysis.profile.concurrency, 3);
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
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

  it('the language-model tools ignore the workspace’s provider rows and endpoints, say so, and match the hover', async () => {
    // The workspace's provider row is valid: trusted, it would be a target.
    const settings = JSON.parse(readFileSync(workspaceFile('.vscode/settings.json').fsPath, 'utf8')) as {
      'promptLens.providers': unknown[];
    };
    const trusted = loadTables([{ name: 'settings', data: { providers: settings['promptLens.providers'] } }]);
    assert.equal(resolveTarget(parseTargetId('workspace/free-model'), trusted.tables).id, 'workspace/free-model');
    await assert.rejects(
      invokeAgentTool('promptLens_analyzePrompt', { path: 'support.prompt', targets: ['workspace/free-model'] }),
      /workspace\/free-model/,
    );

    const editor = await openPrompt('support.prompt');
    const { text, data } = await invokeAgentTool('promptLens_analyzePrompt', { path: 'support.prompt' });
    assert.match(
      text,
      /not trusted \(Workspace Trust\): its promptLens\.endpoints, promptLens\.providers settings are ignored/,
    );
    assert.equal(data.notes!.filter((n) => n.includes('not trusted')).length, 1);
    const hover = await promptLensHover(editor.document.uri);
    for (const t of data.targets!) assertHoverRow(hover, t);
    const report = await invokeAgentTool('promptLens_workspaceReport', {});
    assert.match(report.text, /not trusted/);
    assert.equal(requests, 0, 'no tool contacted the endpoint');
  });
});
