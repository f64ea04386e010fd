import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { EndpointConfig } from '../../../src/core/bench/endpoints';
import type { BenchResult } from '../../../src/core/bench/result';
import {
  EXTENSION_ID,
  cleanWorkbench,
  hoverTexts,
  queryWorkbench,
  screenshot,
  waitFor,
  workspaceFile,
} from '../helpers';

/** A model row as a user might write it, with one misspelt key (contextWindw). */
const MISSPELT_TABLE = {
  models: [
    {
      id: 'my-model',
      source: 'https://example.invalid/config.json',
      date: '2026-12',
      tokenizer: 'llama3',
      totalParamsB: 8,
      activeParamsB: 8,
      architecture: { layers: 32, hiddenSize: 4096, heads: 32, kvHeads: 8, headDim: 128 },
      contextWindw: 131072,
      precisions: ['bf16'],
    },
  ],
};

async function diagnosticsOf(uri: vscode.Uri, what: string, match: RegExp): Promise<vscode.Diagnostic[]> {
  // The JSON language server starts on the first JSON file: allow it a minute on a loaded machine.
  return waitFor(
    what,
    () => {
      const found = vscode.languages.getDiagnostics(uri);
      return found.some((d) => match.test(d.message)) ? found : undefined;
    },
    60_000,
  );
}

/** Removes the files a describe block wrote, so that the suites after this one see the fixture as it is. */
function removeAfterwards(...names: string[]): void {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const name of names) await vscode.workspace.fs.delete(workspaceFile(name)).then(undefined, () => {});
  });
}

describe('marketplace: what the manifest contributes besides commands', () => {
  removeAfterwards('prompt-lens-tables.json', 'prompt-lens-endpoints.json');
  it('a misspelt key in a tables file gets a JSON-schema diagnostic (contributes.jsonValidation)', async () => {
    await cleanWorkbench();
    const uri = workspaceFile('prompt-lens-tables.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(MISSPELT_TABLE, null, 2)));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(document);
    const diagnostics = await diagnosticsOf(uri, 'a schema diagnostic on contextWindw', /contextWindw/);
    const messages = diagnostics.map((d) => d.message);
    assert.ok(
      messages.some((m) => /contextWindow/.test(m)),
      `the missing field too: ${messages.join(' | ')}`,
    );
    const misspelt = diagnostics.find((d) => /contextWindw/.test(d.message))!;
    assert.equal(document.getText(misspelt.range).replace(/"/g, ''), 'contextWindw');
  });

  it('an endpoints file with an unknown kind gets a JSON-schema diagnostic', async () => {
    const uri = workspaceFile('prompt-lens-endpoints.json');
    const endpoints = [{ name: 'local', kind: 'openai', baseUrl: 'http://127.0.0.1:8000/v1', model: 'm' }];
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(JSON.stringify(endpoints, null, 2)));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await diagnosticsOf(uri, 'a schema diagnostic on kind', /openai-chat/);
  });
});

describe('marketplace: folding by role section', () => {
  it('support.prompt folds its system section at the system: line', async () => {
    await cleanWorkbench();
    const uri = workspaceFile('support.prompt');
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const ranges = await waitFor('folding ranges', async () => {
      const found = await vscode.commands.executeCommand<vscode.FoldingRange[]>(
        'vscode.executeFoldingRangeProvider',
        uri,
      );
      return found.some((r) => r.start === 0 && r.end === 3) ? found : undefined;
    });
    assert.ok(
      ranges.some((r) => r.start === 0 && r.end === 3),
      JSON.stringify(ranges),
    );
  });
});

interface Walkthrough {
  id: string;
  title: string;
  steps: Array<{ id: string; title: string; description: string; completionEvents: string[] }>;
}

/** The manifest's walkthrough with its %key% strings resolved from the installed package.nls.json. */
async function installedWalkthrough(): Promise<Walkthrough> {
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  const nlsFile = vscode.Uri.joinPath(extension.extensionUri, 'package.nls.json');
  const nls = JSON.parse(new TextDecoder().decode(await vscode.workspace.fs.readFile(nlsFile))) as Record<
    string,
    string
  >;
  const text = (value: string) => nls[/^%(.+)%$/.exec(value)?.[1] ?? ''] ?? value;
  const [raw] = (extension.packageJSON as { contributes: { walkthroughs: Walkthrough[] } }).contributes.walkthroughs;
  return {
    ...raw!,
    title: text(raw!.title),
    steps: raw!.steps.map((s) => ({ ...s, title: text(s.title), description: text(s.description) })),
  };
}

/** The commands a step's buttons run, in order. */
function buttonCommands(step: Walkthrough['steps'][number]): string[] {
  return [...step.description.matchAll(/\(command:([\w.]+)/g)].map((m) => m[1]!);
}

/** Reverts and closes untitled editors (the example prompt): closing a dirty one would ask to save, modally. */
async function closeUntitled(): Promise<void> {
  for (const document of vscode.workspace.textDocuments.filter((d) => d.isUntitled && !d.isClosed)) {
    await vscode.window.showTextDocument(document);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  }
}

/** Opens the example prompt with the first step's button; resolves with its (untitled) document. */
async function openExample(): Promise<vscode.TextDocument> {
  const before = vscode.window.activeTextEditor;
  await vscode.commands.executeCommand('promptLens.openExamplePrompt');
  const example = await waitFor('the example prompt', () =>
    vscode.window.activeTextEditor !== before && vscode.window.activeTextEditor?.document.languageId === 'prompty'
      ? vscode.window.activeTextEditor.document
      : undefined,
  );
  assert.ok(example.isUntitled);
  return example;
}

describe('marketplace: the Getting Started walkthrough', () => {
  const category = `${EXTENSION_ID}#gettingStarted`;
  const stepChecked = async (name: string, id: string) =>
    (await queryWorkbench(name, `[data-done-step-id="${category}#${id}"]`))[0]?.attributes['aria-checked'];

  it('is registered: Open Walkthrough shows its five steps in the workbench, and the commands they use exist', async () => {
    await cleanWorkbench();
    const walkthrough = await installedWalkthrough();
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', category, false);
    const titles = await waitFor(
      'the walkthrough steps in the workbench',
      async () => {
        const shown = (await queryWorkbench('walkthrough-steps', '.getting-started-step h3.step-title')).map((e) =>
          e.text.trim(),
        );
        return walkthrough.steps.every((s) => shown.includes(s.title)) ? shown : undefined;
      },
      60_000,
    );
    assert.deepEqual(
      titles.filter((t) => walkthrough.steps.some((s) => s.title === t)),
      walkthrough.steps.map((s) => s.title),
    );
    const heading = await queryWorkbench('walkthrough-title', `h2.category-title[x-category-title-for="${category}"]`);
    assert.ok(
      heading.some((e) => e.text.includes(walkthrough.title)),
      heading.map((e) => e.text).join(' | '),
    );
    // Every command a step's button runs or completes on is one this host knows.
    const known = new Set(await vscode.commands.getCommands(true));
    for (const step of walkthrough.steps) {
      const used = [
        ...buttonCommands(step),
        ...step.completionEvents.filter((e) => e.startsWith('onCommand:')).map((e) => e.slice('onCommand:'.length)),
      ];
      for (const command of used) assert.ok(known.has(command), `${step.id}: ${command} is not a command here`);
    }
    await screenshot('walkthrough');
    // VS Code creates its walkthroughs service on this first Open Walkthrough, after earlier suites' hovers:
    // the hover step must not be checked yet (the hover's context key is a pulse, false between hovers).
    assert.equal(await stepChecked('walkthrough-hover-before', 'hover'), 'false');
  });

  it('its first step is checked once the example prompt has been hovered', async () => {
    const example = await openExample();
    const hover = await waitFor(
      'the hover of the example prompt',
      async () => {
        const texts = await hoverTexts(example.uri, new vscode.Position(25, 3));
        return texts.some((t) => /Prompt Latency Lens/.test(t)) ? texts : undefined;
      },
      60_000,
    );
    assert.match(hover.join('\n'), /tokens/);
    await vscode.window.showTextDocument(example);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', category, false);
    await waitFor(
      'the hover step checked',
      async () => ((await stepChecked('walkthrough-hover-after', 'hover')) === 'true' ? true : undefined),
      30_000,
    );
  });
});

describe("marketplace: the walkthrough's benchmark step runs against a simulator the extension starts", () => {
  const config = () => vscode.workspace.getConfiguration('promptLens');
  const SMALL_RUN = { 'benchmark.requests': 3, 'benchmark.concurrency': [1], 'benchmark.maxTokens': 8 };

  before(async () => {
    for (const [key, value] of Object.entries(SMALL_RUN))
      await config().update(key, value, vscode.ConfigurationTarget.Workspace);
  });
  after(async () => {
    await closeUntitled();
    await vscode.commands.executeCommand('promptLens.stopSimulator');
    for (const key of Object.keys(SMALL_RUN))
      await config().update(key, undefined, vscode.ConfigurationTarget.Workspace);
    await cleanWorkbench();
  });

  it("Start Local Simulator (the step's first button) serves on 127.0.0.1, and Benchmark This Prompt of the example completes against it, no endpoint setting written", async () => {
    await cleanWorkbench();
    const endpointsBefore = JSON.stringify(config().inspect('endpoints'));
    assert.deepEqual(config().get('endpoints'), [], 'no endpoint in settings: the simulator is the one offered');
    const step = (await installedWalkthrough()).steps.find((s) => s.id === 'benchmark')!;
    const [start, benchmark] = buttonCommands(step);
    assert.deepEqual([start, benchmark], ['promptLens.startSimulator', 'promptLens.benchmarkPrompt']);
    const endpoint = await vscode.commands.executeCommand<EndpointConfig | undefined>(start!);
    assert.ok(endpoint, 'the simulator did not start');
    assert.match(endpoint.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const models = (await (await fetch(`${endpoint.baseUrl}/models`)).json()) as { data: Array<{ id: string }> };
    assert.deepEqual(
      models.data.map((m) => m.id),
      [endpoint.model],
    );

    await openExample();
    // As the step's second button runs it: no file, no endpoint name (the simulator was offered first).
    const result = await vscode.commands.executeCommand<BenchResult | undefined>(benchmark!);
    assert.ok(result, 'no benchmark result');
    assert.equal(result.partial, false);
    assert.equal(result.endpoint.baseUrl, endpoint.baseUrl);
    const requests = result.modes.flatMap((m) => m.levels.flatMap((l) => l.requests));
    assert.ok(requests.length >= 3 && requests.every((r) => r.ok), JSON.stringify(requests.map((r) => r.error)));
    assert.ok(result.prediction?.ttftMs !== undefined, 'the simulator endpoint names its target: a prediction');
    assert.equal(JSON.stringify(config().inspect('endpoints')), endpointsBefore, 'promptLens.endpoints changed');

    await vscode.commands.executeCommand('promptLens.stopSimulator');
    await assert.rejects(fetch(`${endpoint.baseUrl}/models`), 'the simulator still answers after Stop');
  });
});

/** A prompt with every construct the grammar marks (the grammar unit test's sample, shortened). */
const HIGHLIGHT_SAMPLE = [
  '---',
  'name: Answer from the documents',
  'model: gpt-4o',
  '---',
  'system:',
  'You answer from the documents only. <!-- prompt-lens-disable rag-budget -->',
  '<documents>',
  '{% for doc in documents %}<document id="{{ doc.id }}">{{ doc.text | trim }}</document>{% endfor %}',
  '</documents>',
  '',
  'user:',
  'Question: {{ question }}',
  '',
].join('\n');

/** [text at the cursor, the scope the grammar gives it] (the grammar unit test asserts the same). */
const EXPECTED_SCOPES: Array<[string, string]> = [
  ['system', 'entity.name.section.role.prompt-lens'],
  ['user', 'entity.name.section.role.prompt-lens'],
  ['documents>', 'entity.name.tag.retrieved-context.prompt-lens'],
  ['for doc', 'keyword.control.template.prompt-lens'],
  ['question', 'variable.other.template.prompt-lens'],
  ['prompt-lens-disable', 'keyword.other.pragma.prompt-lens'],
];
/** Prompty's front matter is YAML; a plain .prompt sends those lines as text, and its grammar says so. */
const FRONT_MATTER_SCOPE: Record<string, [string, string]> = {
  'highlight.prompty': ['model', 'entity.name.tag.yaml'],
  'highlight.prompt': ['model', 'text.prompt-lens.plain'],
};

/**
 * The scopes the real editor's tokenizer gives the text at the cursor, read from the Developer: Inspect
 * Editor Tokens and Scopes widget in Chromium (`_workbench.captureSyntaxTokens` does not exist in this host).
 */
async function scopesAt(editor: vscode.TextEditor, needle: string): Promise<string[]> {
  const offset = editor.document.getText().indexOf(needle);
  assert.ok(offset >= 0, needle);
  const position = editor.document.positionAt(offset + 1);
  editor.selection = new vscode.Selection(position, position);
  return waitFor(
    `the token inspector at "${needle}"`,
    async () => {
      const [heading] = await queryWorkbench('token-inspector-token', '.token-inspect-widget h2.tiw-token');
      const [length] = await queryWorkbench('token-inspector-length', '.token-inspect-widget .tiw-token-length');
      // The heading is the token under the cursor: wait until it shows this one, not the previous one.
      const token = heading?.text.slice(0, heading.text.length - (length?.text.length ?? 0)).trim();
      if (!token || !(needle.startsWith(token) || token.startsWith(needle))) return undefined;
      const rows = await queryWorkbench('token-inspector-rows', '.token-inspect-widget tr');
      const scopes = rows.find((r) => r.text.startsWith('textmate scopes'))?.text.slice('textmate scopes'.length);
      return scopes?.split(/\s+/).filter(Boolean);
    },
    30_000,
  );
}

describe('marketplace: syntax highlighting in the real editor', () => {
  removeAfterwards('highlight.prompt', 'highlight.prompty', 'highlight.prompt.yml');
  for (const file of ['highlight.prompt', 'highlight.prompty']) {
    it(`${file}: role markers, template blocks and variables, retrieved-context tags, pragmas and front matter get the grammar's scopes`, async () => {
      await cleanWorkbench();
      const uri = workspaceFile(file);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(HIGHLIGHT_SAMPLE));
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      await vscode.commands.executeCommand('editor.action.inspectTMScopes');
      try {
        for (const [needle, scope] of [...EXPECTED_SCOPES, FRONT_MATTER_SCOPE[file]!]) {
          const scopes = await scopesAt(editor, needle);
          assert.ok(scopes.includes(scope), `"${needle}" in ${file}: ${scopes.join(' ')} lacks ${scope}`);
        }
      } finally {
        await vscode.commands.executeCommand('editor.action.inspectTMScopes'); // toggles it off
      }
    });
  }

  it('highlight.prompt.yml: a template variable inside a YAML string gets the injection scope', async () => {
    await cleanWorkbench();
    const uri = workspaceFile('highlight.prompt.yml');
    const text = ['messages:', '  - role: user', '    content: Summarise this for {{audience}}.', ''].join('\n');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    await vscode.commands.executeCommand('editor.action.inspectTMScopes');
    try {
      const variable = await scopesAt(editor, 'audience');
      assert.ok(variable.includes('variable.other.template.prompt-lens'), variable.join(' '));
      assert.ok(
        variable.some((s) => s.startsWith('string.')),
        `still inside the YAML string: ${variable.join(' ')}`,
      );
      const key = await scopesAt(editor, 'content');
      assert.ok(!key.includes('variable.other.template.prompt-lens'), key.join(' '));
    } finally {
      await vscode.commands.executeCommand('editor.action.inspectTMScopes');
    }
  });

  it('screenshot: a highlighted prompt', async () => {
    await cleanWorkbench();
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(workspaceFile('highlight.prompty')));
    await screenshot('highlighted-prompt');
  });
});

describe('marketplace: language defaults', () => {
  it("bracket-pair colorization is off by default in .prompt and .prompty (VS Code's parse of every bracket held its UI thread ~0.3 s when a 1 MB prompt opened), on elsewhere", () => {
    const colorized = (languageId: string) =>
      vscode.workspace.getConfiguration('editor', { languageId }).get<boolean>('bracketPairColorization.enabled');
    assert.equal(colorized('prompt-lens-plain'), false);
    assert.equal(colorized('prompty'), false);
    assert.equal(colorized('markdown'), true);
  });
});

describe('marketplace: the language configuration closes {{ with }}', () => {
  removeAfterwards('autoclose.prompt', 'autoclose.prompty');
  for (const file of ['autoclose.prompty', 'autoclose.prompt'])
    it(`${file}: typing {{ in the editor gives {{}}, and the variable is typed between them`, async () => {
      await cleanWorkbench();
      const uri = workspaceFile(file);
      await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode('user:\nHello \n'));
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const end = new vscode.Position(1, 'Hello '.length);
      editor.selection = new vscode.Selection(end, end);
      // `type` is the editor's own typing path (what a keystroke runs): auto-closing applies to it.
      for (const text of ['{', '{', 'name']) await vscode.commands.executeCommand('type', { text });
      assert.equal(editor.document.lineAt(1).text, 'Hello {{name}}');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    });
});
