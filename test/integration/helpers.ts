import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { formatMs, formatRange, formatUsd } from '../../src/core/format';
import { markdownText } from '../../src/core/markdown';
import type { PromptLensApi } from '../../src/extension/extension';
import { linearLatencyModel } from '../../src/core/sim/latencyModel';
import { startSimulator } from '../../src/core/sim/server';

export const EXTENSION_ID = 'prompt-latency-lens.prompt-latency-lens';

export function workspaceFile(relative: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new Error('the integration workspace has no folder open');
  return vscode.Uri.joinPath(folder.uri, relative);
}

export async function openPrompt(relative: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(workspaceFile(relative));
  return vscode.window.showTextDocument(document);
}

export async function extensionApi(): Promise<PromptLensApi> {
  const extension = vscode.extensions.getExtension<PromptLensApi>(EXTENSION_ID);
  if (!extension) throw new Error(`${EXTENSION_ID} is not installed`);
  return extension.activate();
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls until `probe` returns a value, failing with `what` after the timeout. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Hover contents as plain strings, once the document's analysis is in: the hover itself never waits for it (it says
 * "pending…" until then; `npm run bench:editor`'s probe measures those hovers), tests read the figures.
 */
export async function hoverTexts(uri: vscode.Uri, position: vscode.Position): Promise<string[]> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (document) await (await extensionApi()).analysis(document);
  return rawHoverTexts(uri, position);
}

/** Hover contents as plain strings, as the hover answers now. */
export async function rawHoverTexts(uri: vscode.Uri, position: vscode.Position): Promise<string[]> {
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  return hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
}

/**
 * Asks the harness (outside the extension host) to screenshot the browser window, and waits for it.
 * Without a harness (e.g. under @vscode/test-electron) this is a no-op.
 */
export async function screenshot(name: string): Promise<void> {
  const dir = process.env.PROMPT_LENS_SCREENSHOT_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${name}.request`), '');
  await waitFor(`screenshot ${name}`, () => (existsSync(join(dir, `${name}.png`)) ? true : undefined), 20_000);
}

export interface WebviewQueryResult {
  /** Webview frames in which the selector matched. */
  frames: number;
  texts: string[];
  /** true if an injected script ran in any webview (the XSS canary). */
  scripted: boolean;
}

/** Sends a request to the harness (outside the extension host) and waits for its answer. */
async function askHarness<T>(
  name: string,
  kind: 'query' | 'click' | 'button' | 'workbench' | 'measure' | 'viewport',
  selector: string,
): Promise<T> {
  const dir = process.env.PROMPT_LENS_SCREENSHOT_DIR;
  if (!dir) throw new Error('webview access needs the code-server harness (npm run test:integration)');
  mkdirSync(dir, { recursive: true });
  const result = join(dir, `${name}.result.json`);
  rmSync(result, { force: true });
  writeFileSync(join(dir, `${name}.${kind}.json.tmp`), JSON.stringify({ selector }));
  renameSync(join(dir, `${name}.${kind}.json.tmp`), join(dir, `${name}.${kind}.json`));
  await waitFor(`webview ${kind} ${name}`, () => (existsSync(result) ? true : undefined), 20_000);
  return JSON.parse(readFileSync(result, 'utf8')) as T;
}

/** Reads the real DOM of the open webviews in Chromium, through the harness. */
export function queryWebviews(name: string, selector: string): Promise<WebviewQueryResult> {
  return askHarness<WebviewQueryResult>(name, 'query', selector);
}

export interface WebviewLayout {
  frames: number;
  /** The inner size of the webview that holds the matches: the editor group it fills. */
  viewport?: { width: number; height: number };
  boxes: { x: number; y: number; width: number; height: number; text: string }[];
}

/** Where the elements matching the selector are laid out in the webviews (real Chromium layout). */
export function measureWebviews(name: string, selector: string): Promise<WebviewLayout> {
  return askHarness<WebviewLayout>(name, 'measure', selector);
}

/** Resizes the browser window the workbench runs in (the harness starts at 1600×1000). */
export async function setWindowSize(width: number, height: number): Promise<void> {
  await askHarness(`viewport-${width}x${height}`, 'viewport', `${width}x${height}`);
}

/** Clicks the first element matching the selector in the webviews, with Chromium's real mouse. */
export async function clickWebview(name: string, selector: string): Promise<boolean> {
  return (await askHarness<{ clicked: boolean }>(name, 'click', selector)).clicked;
}

export interface WorkbenchElement {
  /** The rendered text (innerText: a <br> is a line break). */
  text: string;
  attributes: Record<string, string>;
  /** Where it is laid out in the page, and the page's size (the browser window). */
  box: { x: number; y: number; width: number; height: number };
  window: { width: number; height: number };
}

/** Reads the real DOM of the workbench page itself (editors, walkthroughs, widgets; not webviews). */
export async function queryWorkbench(name: string, selector: string): Promise<WorkbenchElement[]> {
  return (await askHarness<{ elements: WorkbenchElement[] }>(name, 'workbench', selector)).elements;
}

/** Clicks a button of the workbench itself (e.g. in a modal dialog), by its label. */
export async function clickWorkbenchButton(name: string, label: string): Promise<boolean> {
  return (await askHarness<{ clicked: boolean }>(name, 'button', label)).clicked;
}

/** A tidy workbench for a screenshot: no editors, panels or notifications left by earlier tests. */
export async function cleanWorkbench(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  await vscode.commands.executeCommand('workbench.action.closePanel');
  await vscode.commands.executeCommand('notifications.clearAll');
  await sleep(300);
}

/** A language-model tool's answer through `vscode.lm.invokeTool`: its text for the model, then its data (JSON). */
export async function invokeAgentTool(name: string, input: object): Promise<{ text: string; data: AgentData }> {
  const result = await vscode.lm.invokeTool(name, { input, toolInvocationToken: undefined });
  // The parts cross the extension host from another extension: read them by shape, not by class.
  const texts = result.content.map((part) => (part as { value?: unknown }).value).filter((v) => typeof v === 'string');
  if (texts.length !== 2)
    throw new Error(`expected a text part and a data part, got ${JSON.stringify(result.content)}`);
  return { text: texts[0]!, data: JSON.parse(texts[1]!) as AgentData };
}

/** The fields of an analyzePrompt answer's data the suites compare with the hover. */
export interface AgentTarget {
  id: string;
  label: string;
  inputTokens: number;
  tokensExact: boolean;
  ttftMs: { cold: { p50: number; low: number; high: number }; warm: { p50: number } | null };
  tpotMs: { p50: number };
  e2eMs: { cold: { p50: number } };
  costPerCallUsd: { cold: number | null };
  costPer1kCallsUsd: number | null;
}
export type AgentData = Record<string, unknown> & { targets?: AgentTarget[]; notes?: string[] };

/** The Prompt Latency Lens hover of a document. */
export async function promptLensHover(uri: vscode.Uri, position = new vscode.Position(1, 3)): Promise<string> {
  const hover = (await hoverTexts(uri, position)).find((t) => t.includes('Prompt Latency Lens'));
  assert.ok(hover, 'no Prompt Latency Lens hover');
  return hover;
}

/**
 * The hover's row of one target, cell by cell, against an agent tool's figures for it: TTFT cold with its range,
 * warm, TPOT, E2E cold, $/call cold, $/1k calls.
 */
export function assertHoverRow(hover: string, t: AgentTarget): void {
  const gap = '\u2007\u2007';
  const row = hover.split('\n').find((l) => l.startsWith(`| ${markdownText(t.label)} |`));
  assert.ok(row, `no hover row for ${t.label} in\n${hover}`);
  const cells = row.split(' | ').slice(1);
  assert.equal(cells[0], `${gap}${formatRange(t.ttftMs.cold)}`, row);
  if (t.ttftMs.warm) assert.equal(cells[1], `${gap}${formatMs(t.ttftMs.warm.p50)}`, row);
  else assert.ok(cells[1]?.startsWith(`${gap}–`), row);
  assert.equal(cells[2], `${gap}${formatMs(t.tpotMs.p50)}`, row);
  assert.equal(cells[3], `${gap}${formatMs(t.e2eMs.cold.p50)}`, row);
  assert.equal(cells[4], `${gap}${formatUsd(t.costPerCallUsd.cold)}`, row);
  assert.equal(cells[5], `${gap}${formatUsd(t.costPer1kCallsUsd)} |`, row);
}

export type Simulator = Awaited<ReturnType<typeof startSimulator>>;

const BENCH_SETTINGS = [
  'endpoints',
  'targets',
  'benchmark.requests',
  'benchmark.concurrency',
  'benchmark.maxTokens',
  'benchmark.cache',
];

/**
 * A local simulator on 127.0.0.1 with known delays (30 ms prefill base + 20,000 prompt tokens/s, 5 ms per output
 * token), configured as endpoint `sim` with a small run: 6 requests at concurrency 1 and 2, 12 output tokens.
 */
export async function simulatorEndpoint(): Promise<Simulator> {
  const sim = await startSimulator({
    port: 0,
    latency: linearLatencyModel({
      prefillBaseMs: 30,
      prefillTokensPerSecond: 20_000,
      tpotBaseMs: 5,
      tpotMsPer1kContext: 0,
      tpotMsPerExtraSequence: 0,
    }),
    defaultMaxTokens: 12,
  });
  const config = vscode.workspace.getConfiguration('promptLens');
  const workspace = vscode.ConfigurationTarget.Workspace;
  await config.update(
    'endpoints',
    [{ name: 'sim', baseUrl: sim.url, model: sim.model, target: 'llama-3.1-8b@1xh100-sxm' }],
    workspace,
  );
  await config.update('benchmark.requests', 6, workspace);
  await config.update('benchmark.concurrency', [1, 2], workspace);
  await config.update('benchmark.maxTokens', 12, workspace);
  return sim;
}

/** Stops the simulator and clears what simulatorEndpoint (and the suites) set. */
export async function closeSimulatorEndpoint(sim: Simulator | undefined): Promise<void> {
  await sim?.close();
  const config = vscode.workspace.getConfiguration('promptLens');
  for (const key of BENCH_SETTINGS) await config.update(key, undefined, vscode.ConfigurationTarget.Workspace);
}
