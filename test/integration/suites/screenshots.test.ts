// #15 item 5, "look at it": each surface of one prompt (findings/rag-oversized.prompt) at 1600×1000 and in a
// 1000 px window, in a light and a dark theme, in the real VS Code and Chromium. The harness saves them in
// .test-output/screenshots; the reviewed set is kept in media/screenshots/review (docs/screenshots.md).
// Each view is also measured: at either size nothing a reader needs is cut off.
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { BenchResult } from '../../../src/core/bench/result';
import { formatMs } from '../../../src/core/format';
import {
  cleanWorkbench,
  closeSimulatorEndpoint,
  extensionApi,
  measureWebviews,
  openPrompt,
  queryWebviews,
  queryWorkbench,
  screenshot,
  setWindowSize,
  simulatorEndpoint,
  waitFor,
  type Simulator,
} from '../helpers';

const PROMPT = 'findings/rag-oversized.prompt';
const THEMES = [
  ['light', 'Default Light Modern', 'vs'],
  ['dark', 'Default Dark Modern', 'vs-dark'],
] as const;
const SIZES = [
  [1600, 1000],
  [1000, 1000],
] as const;

/** Waits until the webviews show the selector's matches (`enough` of them). */
async function webviewShows(name: string, selector: string, enough = 1): Promise<void> {
  await waitFor(
    `${name} in its webview`,
    async () => ((await queryWebviews(name, selector)).texts.length >= enough ? true : undefined),
    30_000,
  );
}

/** Every box of the selector's matches lies inside its webview's width (nothing cut off on the right). */
async function insideView(name: string, selector: string): Promise<void> {
  const layout = await measureWebviews(name, selector);
  const width = layout.viewport?.width ?? 0;
  assert.ok(layout.boxes.length > 0, `${selector}: nothing laid out`);
  for (const box of layout.boxes)
    assert.ok(
      box.x >= 0 && box.x + box.width <= width + 0.5,
      `${selector} "${box.text.slice(0, 40)}" at ${box.x.toFixed(1)}+${box.width.toFixed(1)} px in a ${width} px view`,
    );
}

describe('screenshots of every surface', () => {
  let sim: Simulator;
  const workbench = () => vscode.workspace.getConfiguration('workbench');

  before(async () => {
    sim = await simulatorEndpoint();
    // No fade-in: a screenshot shows the hover as it stays, not half drawn.
    await workbench().update('reduceMotion', 'on', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await closeSimulatorEndpoint(sim);
    await workbench().update('colorTheme', undefined, vscode.ConfigurationTarget.Global);
    await workbench().update('reduceMotion', undefined, vscode.ConfigurationTarget.Global);
    await setWindowSize(1600, 1000);
    await cleanWorkbench();
  });

  for (const [theme, themeId, themeClass] of THEMES)
    for (const [width, height] of SIZES)
      it(`${theme} theme, ${width}×${height}: hover and status bar, CodeLens and Problems, Compare, report, results`, async function () {
        this.timeout(300_000); // five views and a benchmark run, each rendered and measured before its screenshot
        const name = (surface: string) => `${surface}-${theme}-${width}`;
        await workbench().update('colorTheme', themeId, vscode.ConfigurationTarget.Global);
        await setWindowSize(width, height);
        await waitFor(`the ${theme} theme`, async () => {
          const [body] = await queryWorkbench(name('theme'), '.monaco-workbench');
          return body?.attributes.class?.split(' ').includes(themeClass) ? true : undefined;
        });
        const api = await extensionApi();

        // Status bar, CodeLens and the hover of the primary target: the cold TTFT the status bar leads with.
        await cleanWorkbench();
        const editor = await openPrompt(PROMPT);
        const analysis = (await api.analysis(editor.document))!;
        const cold = formatMs(analysis.targets[0]!.cold.ttftMs.p50);
        await waitFor('the status bar', () => (api.statusBarText().includes(`TTFT ${cold} cold`) ? true : undefined));
        // The CodeLens above the system message, as Chromium shows it: this file's tokens (not the last file's).
        const system = analysis.count.messages[0]!.tokens.toLocaleString('en-US');
        await waitFor(`the CodeLens "system: ${system} tok" in Chromium`, async () => {
          const lenses = await queryWorkbench(name('lens'), '.codelens-decoration');
          return lenses.some((e) => e.box.width > 0 && e.text.includes(`system: ${system} tok`)) ? true : undefined;
        });
        editor.selection = new vscode.Selection(1, 2, 1, 2);
        await vscode.commands.executeCommand('editor.action.showHover');
        // This prompt's hover, shown: an earlier suite's hover widget stays in the page, hidden.
        const tokens = `prompt ${analysis.count.inputTokens.toLocaleString('en-US')} tokens`;
        const hover = await waitFor(`the hover (${tokens}, TTFT ${cold}) in Chromium`, async () => {
          const shown = await queryWorkbench(name('hover'), '.monaco-hover');
          const mine = shown.find((e) => e.box.width > 0 && e.text.includes(tokens) && e.text.includes(cold));
          return mine?.text;
        });
        // gpt-4o caches nothing under 1,024 tokens: its blank warm cell has a mark, and the mark a reason.
        const marks = hover.match(/–[¹²³⁴⁵⁶⁷⁸⁹]/g) ?? [];
        assert.ok(marks.length > 0, `a blank warm cell in:\n${hover}`);
        for (const mark of marks) assert.ok(hover.includes(`${mark.slice(1)} no warm figure: `), hover);
        await screenshot(name('hover'));
        // The figures stay in the status bar in a narrow window (other items make way first).
        const items = await queryWorkbench(name('status'), '.statusbar-item');
        const figures = items.find((e) => e.text.includes(`TTFT ${cold} cold`));
        assert.ok(figures, `status bar items: ${JSON.stringify(items.map((e) => e.text))}`);
        const { box, window } = figures;
        assert.ok(
          box.width > 0 && box.x >= 0 && box.x + box.width <= window.width && box.y + box.height <= window.height,
          `the figures at ${JSON.stringify(box)} in a ${window.width}×${window.height} window`,
        );

        // The findings in the Problems view, the CodeLens above each message.
        await vscode.commands.executeCommand('editor.action.hideHover');
        await vscode.commands.executeCommand('workbench.actions.view.problems');
        await waitFor('findings in the Problems view', async () =>
          (await queryWorkbench(name('problems'), '.markers-panel .monaco-list-row')).length > 0 ? true : undefined,
        );
        await screenshot(name('problems'));

        // Compare, beside the prompt: the table and every Use button inside the view.
        await cleanWorkbench();
        await openPrompt(PROMPT);
        await vscode.commands.executeCommand('promptLens.compareTargets', editor.document.uri);
        await webviewShows(name('compare-rows'), '[data-test=compare-row]', 10);
        await screenshot(name('compare'));
        // Every Use button in view; the table whole from a 600 px group (700 px is #15's bar), else it scrolls
        // sideways in its own box, which stays inside the view.
        await insideView(name('compare-use'), '[data-test=compare-row] [data-test=use]');
        const group = (await measureWebviews(name('compare-group'), '.table-host')).viewport?.width ?? 0;
        await insideView(name('compare-table'), group >= 600 ? '[data-test=compare-table]' : '.table-host');

        // The workspace report's preview: its table inside the preview.
        await cleanWorkbench();
        await vscode.commands.executeCommand('promptLens.showWorkspaceReport');
        await webviewShows(name('report-table'), 'table tbody tr');
        await screenshot(name('report'));

        // The benchmark results view of a run of this prompt against the local simulator: the levels table's
        // verdict columns inside the view.
        await cleanWorkbench();
        await openPrompt(PROMPT);
        const run = await vscode.commands.executeCommand<BenchResult>(
          'promptLens.benchmarkPrompt',
          editor.document.uri,
          'sim',
        );
        assert.ok(run && !run.partial, 'a whole run to show');
        await vscode.commands.executeCommand('notifications.clearAll');
        await webviewShows(name('results-legend'), '.u-legend .u-series', 4);
        await screenshot(name('results'));
        // The prefix-cache card: a speedup, "no measurable speedup" or "slower when warm", never "0.9× faster".
        const cache = (await queryWebviews(name('results-cache'), '[data-test=cache] .card-value')).texts[0] ?? '';
        assert.match(cache, /^(no measurable speedup|slower when warm|[1-9]\d*(\.\d+)?× faster)$/);
        await insideView(name('results-verdict'), '[data-test=levels] th.verdict');
      });
});
