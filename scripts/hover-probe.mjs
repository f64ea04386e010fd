// `npm run bench:editor`, second half (#19 goal 3): hover latency from the first second, measured by a separate probe
// extension (test/integration/probe) through vscode.executeHoverProvider in the real VS Code (code-server + Chromium).
// The workspace holds the examples, a generated 1 MB prompt and CORPUS_FILES generated prompts, so the workspace scan
// is still running while the first hovers come. One prompt per VS Code session (fresh user data, host and worker).
// Prints per prompt and pooled p50/p95/p99/max (first 3 s, by what the hover carried, settled) with the load average and steal,
// writes .test-output/hover-probe.json, and fails (no timing) if a hover came back empty after the first figures or a
// prompt never settled (pending markers still there).
import * as esbuild from 'esbuild';
import { createVSIX } from '@vscode/vsce';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  HOST_DIR,
  HarnessError,
  ROOT,
  ensureCodeServer,
  freePort,
  installExtensions,
  launchChromium,
  launchChromiumInSession,
  packageExtension,
  startCodeServer,
  workbenchUrl,
} from './vscode-host.mjs';
import { vocabularyPlugin } from './vocabularies.mjs';

const PROBE = join(ROOT, 'test/integration/probe');
const OUTPUT = join(ROOT, '.test-output');
const CORPUS_FILES = Number(process.env.PROMPT_LENS_PROBE_CORPUS ?? 2000);
const PER_PROMPT_MS = 300_000;
const ALL_FILES = [
  'examples/support.prompt',
  'examples/onboarding-email.prompt',
  'examples/release-notes.prompt.md',
  'examples/customer-support.prompty',
  'examples/code-review.prompt.yml',
  'examples/findings/prompts/rag-oversized.prompt',
  'bench/one-megabyte.prompt',
];
/**
 * VS Code's own floor, beside the prompts: the examples' first prompt and the 1 MB text again, as plain-text files (in
 * the same folders, so the explorer reveals the same) this extension does not read, hovered through a no-op provider
 * of the probe that answers at once (PROMPT_LENS_PROBE_FLOOR in probe.ts). What these hovers take is the workbench's,
 * not this extension's: they are reported apart, not in the goal's figure.
 */
const FLOOR_FILES = {
  'examples/support.floor.txt': 'examples/support.prompt',
  'bench/one-megabyte.floor.txt': 'bench/one-megabyte.prompt',
};
const isFloor = (file) => file.endsWith('.floor.txt');
// PROMPT_LENS_PROBE_FILES=a,b probes only those (while investigating); PROMPT_LENS_PROBE_TRACE=1 also writes CPU
// profiles of the extension host (by the probe) and of the workbench (here) beside each session's result.
const FILES = process.env.PROMPT_LENS_PROBE_FILES?.split(',') ?? [...ALL_FILES, ...Object.keys(FLOOR_FILES)];
const TRACE = process.env.PROMPT_LENS_PROBE_TRACE === '1';
// PROMPT_LENS_PROBE_SETTINGS='{"promptLens.codeLens.enabled":false}': user settings for every session (A/B while investigating).
const SETTINGS = JSON.parse(process.env.PROMPT_LENS_PROBE_SETTINGS ?? '{}');
// code-server and Chromium run in this process's session, as desktop VS Code's processes share one (see
// launchChromiumInSession); PROMPT_LENS_PROBE_APART=1 starts each in a session of its own, as the test harness does.
const APART = process.env.PROMPT_LENS_PROBE_APART === '1';
// PROMPT_LENS_PROBE_WARM=1: each window shows WARM_FILE (a file with one of VS Code's grammars) for 3 s before the prompt
// is opened, so VS Code's once-per-window work (the first editor, TextMate's start) is done, as in a window in use.
const WARM = process.env.PROMPT_LENS_PROBE_WARM === '1';
const WARM_FILE = 'warm.ini';

async function buildProbe() {
  await esbuild.build({
    entryPoints: [join(PROBE, 'probe.ts')],
    outfile: join(PROBE, 'dist/probe.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
    // The probe reads the hover's wording from the extension's source; the tokenizers it imports on the way stay
    // external (never loaded: the probe counts nothing).
    plugins: [vocabularyPlugin],
    logLevel: 'warning',
  });
  const vsix = join(ROOT, 'dist/prompt-lens-hover-probe.vsix');
  await createVSIX({
    cwd: PROBE,
    packagePath: vsix,
    dependencies: false,
    allowMissingRepository: true,
    skipLicense: true,
  });
  return vsix;
}

/** About 1 MB of mixed prose, code, JSON and CJK (as the perf suite's), in one user message. */
function oneMegabyte() {
  const parts = [
    'The retrieval step returns the five most relevant passages; cite each one you use. ',
    'function add(a: number, b: number): number { return a + b; }\n',
    '{"id": 1234, "name": "widget", "tags": ["a", "b"], "price": 19.99}\n',
    '检索到的文档需要被引用。モデルは簡潔に答える。\n',
  ];
  const out = ['system:\nYou answer questions about the documents below.\nuser:\n'];
  for (let i = 0, length = out[0].length; length < 1_000_000; i++) {
    out.push(parts[i % parts.length]);
    length += parts[i % parts.length].length;
  }
  return out.join('');
}

/** Prompts of about 5k tokens; each ten share a system prompt (prefix-cache groups for the scan to find). */
function corpusPrompt(i) {
  const group = Math.floor(i / 10);
  const rules = Array.from(
    { length: 220 },
    (_, r) => `Rule ${r} of policy ${group}: answer in the customer's language and cite section ${r}.`,
  );
  return `system:\n${rules.join('\n')}\nuser:\nQuestion ${i}: where is order ${1000 + i}?\n`;
}

function workspace(folder) {
  rmSync(folder, { recursive: true, force: true });
  cpSync(join(ROOT, 'examples'), join(folder, 'examples'), { recursive: true });
  mkdirSync(join(folder, 'bench'), { recursive: true });
  writeFileSync(join(folder, 'bench/one-megabyte.prompt'), oneMegabyte());
  mkdirSync(join(folder, 'corpus'), { recursive: true });
  for (let i = 0; i < CORPUS_FILES; i++) writeFileSync(join(folder, `corpus/p${i}.prompt`), corpusPrompt(i));
  for (const [floor, prompt] of Object.entries(FLOOR_FILES)) cpSync(join(folder, prompt), join(folder, floor));
  writeFileSync(
    join(folder, WARM_FILE),
    '[window]\n; shown before the prompt under PROMPT_LENS_PROBE_WARM=1\nwidth = 1600\n',
  );
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
};
const round = (x) => (x === undefined ? undefined : Math.round(x * 10) / 10);
function stats(samples) {
  const ms = samples.map((s) => s.ms);
  if (ms.length === 0) return { n: 0 };
  return {
    n: ms.length,
    p50: round(percentile(ms, 50)),
    p95: round(percentile(ms, 95)),
    p99: round(percentile(ms, 99)),
    max: round(Math.max(...ms)),
  };
}
function byKind(samples) {
  const kinds = {};
  for (const s of samples) (kinds[s.kind] ??= []).push(s);
  return Object.fromEntries(Object.entries(kinds).map(([k, v]) => [k, stats(v)]));
}

async function main() {
  const uptimeBefore = execFileSync('uptime').toString().trim();
  ensureCodeServer();
  const extensionVsix = packageExtension();
  const probeVsix = await buildProbe();
  const runDir = join(HOST_DIR, 'runs', 'hover-probe');
  const folder = join(runDir, 'workspace');
  workspace(folder);
  const extensionsDir = join(runDir, 'extensions');
  rmSync(extensionsDir, { recursive: true, force: true });
  installExtensions(extensionsDir, [extensionVsix, probeVsix]);
  const probed = [];
  const browser = APART ? await launchChromium() : await launchChromiumInSession();
  try {
    for (const [i, file] of FILES.entries()) {
      probed.push(await probeSession(browser, { runDir: join(runDir, `session-${i}`), extensionsDir, folder, file }));
      console.log(`probed ${file}`);
    }
  } finally {
    await browser.close().catch(() => {});
  }
  return report(probed, uptimeBefore, execFileSync('uptime').toString().trim());
}

/** One VS Code session (fresh user data: no editor restored) that opens `file` first; resolves with the probe's result. */
async function probeSession(browser, { runDir, extensionsDir, folder, file }) {
  rmSync(runDir, { recursive: true, force: true });
  const result = join(runDir, 'result.json');
  const server = await startCodeServer({
    port: await freePort(),
    userDataDir: join(runDir, 'user-data'),
    extensionsDir,
    folder,
    log: 'ignore',
    settings: SETTINGS,
    sameSession: !APART,
    env: {
      PROMPT_LENS_PROBE_FILE: file,
      PROMPT_LENS_PROBE_RESULT: result,
      ...(isFloor(file) ? { PROMPT_LENS_PROBE_FLOOR: '1' } : {}),
      PROMPT_LENS_PROBE_WARM: WARM ? WARM_FILE : '',
    },
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  const cdp = TRACE ? await page.context().newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
    await cdp.send('Profiler.start');
  }
  try {
    await page.goto(workbenchUrl(server.url, folder), { timeout: PER_PROMPT_MS });
    const deadline = Date.now() + PER_PROMPT_MS;
    while (!existsSync(result)) {
      if (existsSync(`${result}.error`))
        throw new HarnessError(`probe failed on ${file}:\n${readFileSync(`${result}.error`, 'utf8')}`);
      if (Date.now() > deadline) throw new HarnessError(`no probe result for ${file} within ${PER_PROMPT_MS / 1000} s`);
      await new Promise((r) => setTimeout(r, 250));
    }
    if (cdp) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(join(runDir, 'renderer-profile.json'), JSON.stringify(profile));
    }
    return JSON.parse(readFileSync(result, 'utf8'));
  } finally {
    await page.close().catch(() => {});
    server.stop();
  }
}

function report(all, uptimeBefore, uptimeAfter) {
  const summary = (r) => ({
    file: r.file,
    bytes: r.bytes,
    openedAtMs: round(r.openedAtMs),
    shownAtMs: round(r.shownAtMs),
    firstSeconds: stats(r.early),
    firstSecondsByKind: byKind(r.early),
    untilSettled: stats(r.pending),
    untilSettledByKind: byKind(r.pending),
    settled: stats(r.settled),
    firstFiguresAtMs: round(r.firstFiguresAtMs),
    settledAtMs: round(r.settledAtMs),
    loadAverage: r.loadAverage,
    steal: r.steal,
    hostLongestBlockMs: r.hostLongestBlockMs,
    ownLongestStretch: r.ownLongestStretch,
  });
  const probed = all.filter((r) => !isFloor(r.file));
  const floors = all.filter((r) => isFloor(r.file));
  const files = probed.map(summary);
  const beforeSettled = probed.flatMap((r) => [...r.early, ...r.pending]);
  const settled = probed.flatMap((r) => r.settled);
  const pooled = {
    firstSeconds: stats(probed.flatMap((r) => r.early)),
    untilSettled: stats(probed.flatMap((r) => r.pending)),
    beforeSettledByKind: byKind(beforeSettled),
    settled: stats(settled),
    every: stats([...beforeSettled, ...settled]),
  };
  const floor = {
    files: floors.map(summary),
    firstSeconds: stats(floors.flatMap((r) => r.early)),
    every: stats(floors.flatMap((r) => [...r.early, ...r.pending, ...r.settled])),
  };
  const goal = { p99TargetMs: 50, met: pooled.every.p99 <= 50 };
  const sessions = [
    APART ? 'code-server and Chromium each in a session of its own' : 'one session, as desktop VS Code',
    WARM ? `each window showed ${WARM_FILE} first` : 'each prompt the first file of a fresh window',
  ].join('; ');
  const out = { uptimeBefore, uptimeAfter, corpusFiles: CORPUS_FILES, sessions, files, pooled, floor, goal };
  mkdirSync(OUTPUT, { recursive: true });
  writeFileSync(join(OUTPUT, 'hover-probe.json'), JSON.stringify(out, null, 2));
  console.log(
    `\nHovers from document open (probe extension, vscode.executeHoverProvider; ${CORPUS_FILES} other prompts in the workspace; ${sessions})`,
  );
  console.log(`uptime before: ${uptimeBefore}\nuptime after:  ${uptimeAfter}`);
  const row = (name, s) =>
    `${name.padEnd(56)} ${String(s.n).padStart(5)} ${[s.p50, s.p95, s.p99, s.max].map((x) => String(x ?? '–').padStart(8)).join('')}`;
  const kinds = (byKindStats) => {
    for (const [kind, s] of Object.entries(byKindStats)) console.log(row(`  … hover said: ${kind}`, s));
  };
  // The machine while the file was measured: load average at the open, the hypervisor's steal over it.
  const machine = (f) =>
    `load ${f.loadAverage.start.map((x) => x.toFixed(2)).join(' ')}; steal ${f.steal === undefined ? '–' : `${(f.steal * 100).toFixed(1)} %`}`;
  const opened = (f) => `  opened at ${f.openedAtMs} ms, shown at ${f.shownAtMs ?? '–'} ms`;
  console.log(
    `${'hovers (ms)'.padEnd(56)} ${'n'.padStart(5)}${['p50', 'p95', 'p99', 'max'].map((h) => h.padStart(8)).join('')}`,
  );
  for (const f of files) {
    console.log(row(`${f.file}: first 3 s`, f.firstSeconds));
    kinds(f.firstSecondsByKind);
    console.log(row(`${f.file}: after 3 s until settled`, f.untilSettled));
    kinds(f.untilSettledByKind);
    console.log(row(`${f.file}: settled`, f.settled));
    console.log(
      `${opened(f)}, figures at ${f.firstFiguresAtMs ?? '–'} ms, nothing pending from ${f.settledAtMs ?? 'never'} ms; ${machine(f)}`,
    );
    console.log(
      `  until settled: the host's longest block ${f.hostLongestBlockMs} ms; this extension's longest stretch ${f.ownLongestStretch.ms} ms (${f.ownLongestStretch.top.slice(0, 3).join(', ')})`,
    );
  }
  console.log(row('all prompts: first 3 s', pooled.firstSeconds));
  console.log(row('all prompts: after 3 s until settled', pooled.untilSettled));
  kinds(pooled.beforeSettledByKind);
  console.log(row('all prompts: settled', pooled.settled));
  console.log(row('every hover', pooled.every));
  if (floors.length > 0) {
    console.log(
      "VS Code's own floor: the same text as plain-text files, only the probe's no-op hover (not in the goal)",
    );
    for (const f of floor.files) {
      console.log(row(`${f.file}: first 3 s`, f.firstSeconds));
      console.log(row(`${f.file}: settled`, f.settled));
      console.log(`${opened(f)}; ${machine(f)}`);
    }
    console.log(row('floor: first 3 s', floor.firstSeconds));
    console.log(row('floor: every hover', floor.every));
  }
  console.log(
    `goal p99 ≤ 50 ms for every hover: ${goal.met ? 'met' : 'not met'} (p99 ${pooled.every.p99} ms${floors.length > 0 ? `; VS Code's floor p99 ${floor.every.p99} ms, first 3 s ${floor.firstSeconds.p99} ms` : ''})`,
  );
  // Behaviour, not timing: once figures came, every hover carried them; each prompt settled (no pending marker left).
  const problems = [];
  for (const r of probed) {
    const hovers = [...r.early, ...r.pending, ...r.settled];
    if (r.firstFiguresAtMs === undefined) problems.push(`${r.file}: no hover ever carried figures`);
    else if (hovers.some((s) => s.atMs >= r.firstFiguresAtMs && (s.kind === 'none' || s.kind === 'counting')))
      problems.push(`${r.file}: a hover after the first figures came back without them`);
    if (r.settledAtMs === undefined) problems.push(`${r.file}: pending markers never went away`);
    if (r.settled.some((s) => s.kind !== 'complete')) problems.push(`${r.file}: a settled hover still said pending`);
  }
  // The floor's only hover is the probe's own, registered before the open: every hover must carry it.
  for (const r of floors)
    if ([...r.early, ...r.pending, ...r.settled].some((s) => s.kind !== 'complete'))
      problems.push(`${r.file}: a hover came back without the probe's own`);
  for (const p of problems) console.error(`hover probe: ${p}`);
  return problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`hover probe: ${error instanceof HarnessError ? error.message : (error?.stack ?? error)}`);
    process.exit(1);
  },
);
