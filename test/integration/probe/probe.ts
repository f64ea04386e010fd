// The hover probe of `npm run bench:editor` (#19 goal 3): an extension of its own, beside Prompt Latency Lens, that
// asks for hovers as a user's editor does — vscode.executeHoverProvider, through the workbench — and times each one
// from the moment a prompt is opened: every 20 ms for the first seconds (first count, workspace scan and findings
// still running), every 100 ms until the hover says nothing is pending, then settled. One prompt per VS Code session:
// the harness (scripts/hover-probe.mjs) starts a fresh one for each, so each is opened in a fresh host and worker.
import { renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { countingHover, pendingLines } from '../../../src/extension/surfaces/targetTable';
import { HostProfile, longestStretch, type Stretch } from '../hostProfile';
import { cpuTicks, stealShare } from '../../../bench/machine';

const EXTENSION_ID = 'prompt-latency-lens.prompt-latency-lens';
const EARLY_MS = 3000;
const EVERY_MS = 20;
const PENDING_EVERY_MS = 100;
const SETTLED_HOVERS = 60;
const SETTLE_LIMIT_MS = 240_000;
/**
 * PROMPT_LENS_PROBE_FLOOR=1: VS Code's own floor — the file is plain text (no grammar; this extension reads no .txt
 * outside prompts/) and the only hover is the probe's own, answered at once; the same hovers, timed the same way.
 */
const FLOOR = process.env.PROMPT_LENS_PROBE_FLOOR === '1';
const FLOOR_HOVER = 'Hover probe: the floor';

/** What a hover carried: nothing, a pending marker (which one), or everything. */
export type HoverKind = 'none' | 'counting' | 'findings' | 'scan' | 'cheapest' | 'complete';

/** The markers, from the extension's own wording (English: the probe's host runs in English). */
const MARKERS: Array<[HoverKind, string]> = [
  ['counting', countingHover()],
  ['scan', pendingLines({ findingsPending: 'scan' }, false)[0]!],
  ['findings', pendingLines({ findingsPending: 'running' }, false)[0]!],
  ['cheapest', pendingLines({}, true)[0]!],
];

export interface HoverSample {
  /** When the hover was asked for, from the document's open. */
  atMs: number;
  ms: number;
  kind: HoverKind;
  /** PROMPT_LENS_PROBE_TRACE only: when the workbench called the probe's own hover provider for it, from the open. */
  calledAtMs?: number;
  /** PROMPT_LENS_PROBE_TRACE only: CPU time of the whole extension-host process (all threads) during the hover. */
  processCpuMs?: number;
}

/**
 * PROMPT_LENS_PROBE_TRACE=1: a timeline for each hover, to tell where its time goes — the probe registers a hover
 * provider of its own (the workbench asks every provider at once, so its call marks when the request reached the
 * extension host), and writes the host's CPU profile beside the result with the open's monotonic time.
 */
const TRACE = process.env.PROMPT_LENS_PROBE_TRACE === '1';
const providerCalls: number[] = [];

export interface ProbeResult {
  file: string;
  bytes: number;
  /** The open, in microseconds on the system's monotonic clock (to line up CPU profiles of other processes). */
  t0Us: number;
  /** When openTextDocument and showTextDocument answered, from the open. */
  openedAtMs: number;
  shownAtMs?: number;
  /** Every hover asked for in the first EARLY_MS after the open. */
  early: HoverSample[];
  /** Then every PENDING_EVERY_MS until a hover had nothing pending. */
  pending: HoverSample[];
  /** The first hover with figures (not "counting"), from the open. */
  firstFiguresAtMs?: number;
  /** The first hover with nothing pending, from the open; undefined when it never came within SETTLE_LIMIT_MS. */
  settledAtMs?: number;
  settled: HoverSample[];
  loadAverage: { start: number[]; end: number[] };
  /** Share of the machine's CPU time the hypervisor took, from the open to the last hover (bench/machine.ts). */
  steal?: number;
  /** From the open until settled: the extension host's longest block (event-loop delay, any code on the thread)… */
  hostLongestBlockMs: number;
  /** …and the longest run of CPU-profile samples inside Prompt Latency Lens's own code, with its heaviest functions. */
  ownLongestStretch: Stretch;
}

function kindOf(texts: string[]): HoverKind {
  if (FLOOR) return texts.includes(FLOOR_HOVER) ? 'complete' : 'none';
  const hover = texts.find((t) => t.includes('Prompt Latency Lens'));
  if (!hover) return 'none';
  return MARKERS.find(([, marker]) => hover.includes(marker))?.[0] ?? 'complete';
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

async function hover(uri: vscode.Uri, position: vscode.Position, t0: number): Promise<HoverSample> {
  const cpu = TRACE ? process.cpuUsage() : undefined;
  const calls = providerCalls.length;
  const start = performance.now();
  const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position);
  const ms = performance.now() - start;
  const texts = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
  const sample: HoverSample = { atMs: start - t0, ms, kind: kindOf(texts) };
  if (cpu) {
    const used = process.cpuUsage(cpu);
    sample.processCpuMs = Math.round((used.user + used.system) / 100) / 10;
    const called = providerCalls[calls];
    if (called !== undefined) sample.calledAtMs = called - t0;
  }
  return sample;
}

/** Hovers every `everyMs` (or right after the previous one, when it took longer) until `until` says stop. */
async function hoverEvery(
  uri: vscode.Uri,
  position: vscode.Position,
  t0: number,
  until: (samples: HoverSample[]) => boolean,
  everyMs = EVERY_MS,
): Promise<HoverSample[]> {
  const samples: HoverSample[] = [];
  while (!until(samples)) {
    const sample = await hover(uri, position, t0);
    samples.push(sample);
    await sleep(sample.atMs + everyMs - (performance.now() - t0));
  }
  return samples;
}

async function probe(file: string): Promise<ProbeResult> {
  const folder = vscode.workspace.workspaceFolders![0]!.uri;
  const uri = vscode.Uri.joinPath(folder, file);
  const bytes = (await vscode.workspace.fs.stat(uri)).size;
  // As a user's window: the extension is up (activated by the workspace's prompt files), nothing analysed yet.
  const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
  await extension.activate();
  if (FLOOR)
    vscode.languages.registerHoverProvider(
      { scheme: 'file', pattern: '**/*.floor.txt' },
      { provideHover: () => new vscode.Hover(FLOOR_HOVER) },
    );
  // PROMPT_LENS_PROBE_WARM (a workspace file): shown first, so the window's one-time work is done before the open.
  const warmWith = process.env.PROMPT_LENS_PROBE_WARM;
  if (warmWith) {
    await vscode.window.showTextDocument(vscode.Uri.joinPath(folder, warmWith));
    await sleep(3000);
  }
  await sleep(2000);
  const start = loadavg();
  const ticks = cpuTicks();
  const lag = monitorEventLoopDelay({ resolution: 5 });
  lag.enable();
  const profile = await HostProfile.start();
  const t0 = performance.now();
  const t0Us = Number(process.hrtime.bigint() / 1000n);
  if (TRACE)
    vscode.languages.registerHoverProvider(
      { scheme: 'file' },
      {
        provideHover: () => {
          providerCalls.push(performance.now());
          return undefined;
        },
      },
    );
  const document = await vscode.workspace.openTextDocument(uri);
  const openedAtMs = performance.now() - t0;
  // Hovers start as soon as the document exists; the editor shows it meanwhile.
  let shownAtMs: number | undefined;
  void vscode.window.showTextDocument(document).then(() => (shownAtMs = performance.now() - t0));
  const position = new vscode.Position(Math.min(1, document.lineCount - 1), 1);
  const isComplete = (samples: HoverSample[]) => samples.at(-1)?.kind === 'complete';
  const early = await hoverEvery(uri, position, t0, () => performance.now() - t0 >= EARLY_MS);
  const pending = isComplete(early)
    ? []
    : await hoverEvery(
        uri,
        position,
        t0,
        (s) => isComplete(s) || performance.now() - t0 >= SETTLE_LIMIT_MS,
        PENDING_EVERY_MS,
      );
  const firstComplete = [...early, ...pending].findIndex((_, i, all) =>
    all.slice(i).every((x) => x.kind === 'complete'),
  );
  const settledAtMs = firstComplete >= 0 ? [...early, ...pending][firstComplete]!.atMs : undefined;
  const raw = await profile.stopRaw();
  const ownLongestStretch = longestStretch(raw, (url) => url.includes(`${extension.extensionPath}/dist/`));
  if (TRACE && process.env.PROMPT_LENS_PROBE_RESULT)
    writeFileSync(
      join(dirname(process.env.PROMPT_LENS_PROBE_RESULT), 'host-profile.json'),
      JSON.stringify({ t0Us, extensionPath: extension.extensionPath, profile: raw }),
    );
  lag.disable();
  const settled = await hoverEvery(uri, position, t0, (s) => s.length >= SETTLED_HOVERS);
  const steal = stealShare(ticks, cpuTicks());
  const firstFigures = [...early, ...pending, ...settled].find((s) => s.kind !== 'counting' && s.kind !== 'none');
  return {
    file,
    bytes,
    t0Us,
    openedAtMs,
    ...(shownAtMs !== undefined ? { shownAtMs } : {}),
    early,
    pending,
    ...(firstFigures ? { firstFiguresAtMs: firstFigures.atMs } : {}),
    ...(settledAtMs !== undefined ? { settledAtMs } : {}),
    settled,
    loadAverage: { start, end: loadavg() },
    ...(steal !== undefined ? { steal } : {}),
    hostLongestBlockMs: Math.round(lag.max / 1e6),
    ownLongestStretch,
  };
}

function writeAtomically(path: string, text: string): void {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/**
 * PROMPT_LENS_PROBE_FILE: the workspace-relative prompt to probe; the result goes to PROMPT_LENS_PROBE_RESULT (JSON),
 * or what went wrong to the same path + `.error`.
 */
export function activate(): void {
  const file = process.env.PROMPT_LENS_PROBE_FILE;
  const out = process.env.PROMPT_LENS_PROBE_RESULT;
  if (!file || !out) return;
  void probe(file).then(
    (result) => writeAtomically(out, JSON.stringify(result)),
    (error: unknown) => writeAtomically(`${out}.error`, String((error as Error).stack ?? error)),
  );
}
