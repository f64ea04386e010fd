// Shared pieces of `npm start` and the integration harness: a real VS Code (code-server from the npm
// registry) bound to 127.0.0.1, with this extension installed from its own .vsix, and Debian's
// Chromium driven by playwright-core as the window. See ../shared/notes/vscode-host.md.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const HOST_DIR = join(ROOT, '.vscode-host');
export const CODE_SERVER_VERSION = '4.100.3';
const ENTRY = join(HOST_DIR, 'tools/node_modules/code-server/out/node/entry.js');

export class HarnessError extends Error {}

/** Runs a command, streaming its output; throws naming the step when it fails. */
export function step(what, command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit', ...options });
  if (result.error) throw new HarnessError(`${what}: ${result.error.message}`);
  if (result.status !== 0) throw new HarnessError(`${what} failed (exit ${result.status})`);
}

export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(path))
    throw new HarnessError(`Chromium not found at ${path}: apt-get install chromium (or set CHROMIUM_PATH)`);
  return path;
}

/** Installs code-server once into .vscode-host/tools (cached across runs). */
export function ensureCodeServer() {
  step('installing code-server', 'bash', [join(ROOT, 'scripts/install-vscode-host.sh')], {
    env: { ...process.env, CODE_SERVER_VERSION },
  });
  if (!existsSync(ENTRY))
    throw new HarnessError(`code-server entry point missing at ${ENTRY}; delete .vscode-host/tools and retry`);
}

export function codeServerVersion() {
  return JSON.parse(readFileSync(join(HOST_DIR, 'tools/node_modules/code-server/package.json'), 'utf8')).version;
}

/** Builds the production bundle and the .vsix; returns the .vsix path. */
export function packageExtension() {
  step('packaging the extension', 'npm', ['run', '--silent', 'package']);
  return join(ROOT, 'dist/prompt-latency-lens.vsix');
}

export function installExtensions(extensionsDir, vsixPaths) {
  mkdirSync(extensionsDir, { recursive: true });
  for (const vsix of vsixPaths) {
    step(
      `installing ${vsix}`,
      process.execPath,
      [ENTRY, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  }
}

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server on 127.0.0.1 with auth off (safe only because it is bound to loopback).
 * Resolves once it answers HTTP; the returned stop() kills the whole process group — or, with `sameSession`, its
 * process tree: code-server then stays in this process's session (see launchChromiumInSession).
 */
export async function startCodeServer({
  port,
  userDataDir,
  extensionsDir,
  folder,
  env = {},
  trusted = true,
  log = 'ignore',
  settings = {},
  sameSession = false,
}) {
  writeUserSettings(userDataDir, settings);
  const args = [
    ENTRY,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--user-data-dir',
    userDataDir,
    '--extensions-dir',
    extensionsDir,
  ];
  // With Workspace Trust left on, a folder opened this way is untrusted (restricted mode).
  if (trusted) args.push('--disable-workspace-trust');
  args.push(folder);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', log, log],
    detached: !sameSession,
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  const stop = () => {
    if (exited) return;
    terminate(sameSession ? processTree(child.pid) : [-child.pid]);
  };
  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new HarnessError('code-server exited during start-up');
    try {
      const response = await fetch(`${url}healthz`);
      if (response.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      stop();
      throw new HarnessError('code-server did not answer within 60 s');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, stop, child };
}

/** SIGTERM to each process (a negative pid: a process group) still there. */
function terminate(pids) {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
}

/** `pid` and its descendants, parents first (`ps`: the harness runs on Linux). */
function processTree(pid) {
  const children = new Map();
  for (const line of execFileSync('ps', ['-e', '-o', 'pid=,ppid=']).toString().trim().split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** Quiet, offline-friendly user settings: no telemetry (it would try the network), no prompts. */
function writeUserSettings(userDataDir, extra) {
  const settings = {
    'telemetry.telemetryLevel': 'off',
    'git.openRepositoryInParentFolders': 'never',
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    ...extra,
  };
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  writeFileSync(join(userDataDir, 'User/settings.json'), JSON.stringify(settings, null, 2));
}

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

/**
 * Chromium started in this process's session and driven over CDP, for timing (the hover probe). Playwright starts a
 * browser detached, in a session of its own, as the harness starts code-server; with the kernel's autogroup
 * scheduling (on by default in Debian and Ubuntu) each session then gets an equal share of the CPU, so the extension
 * host's worker, niced, still takes the renderer's time as another group's — where desktop VS Code's renderer,
 * extension host and worker are one application in one session, and the worker yields to the renderer (measured:
 * docs/limits.md). With code-server started `sameSession`, all of it shares this process's session. Scheduling
 * switches as Playwright's own launch passes them (no background throttling of timers or renderers).
 */
export async function launchChromiumInSession() {
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(join(tmpdir(), 'prompt-lens-chromium-'));
  const args = [
    ...CHROMIUM_ARGS,
    '--headless',
    '--hide-scrollbars',
    '--mute-audio',
    '--disable-background-timer-throttling',
    '--disable-backgrounding-occluded-windows',
    '--disable-renderer-backgrounding',
    '--disable-ipc-flooding-protection',
    '--disable-hang-monitor',
    '--remote-debugging-port=0',
    `--user-data-dir=${userDataDir}`,
    'about:blank',
  ];
  const child = spawn(chromiumPath(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  const close = () => {
    terminate(processTree(child.pid));
    rmSync(userDataDir, { recursive: true, force: true });
  };
  try {
    const endpoint = await new Promise((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(
        () => reject(new HarnessError('Chromium did not open its DevTools port within 30 s')),
        30_000,
      );
      child.stderr.on('data', (data) => {
        seen = (seen + data.toString()).slice(-4096);
        const found = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
        if (found) {
          clearTimeout(timer);
          resolve(found[1]);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new HarnessError(`Chromium exited (code ${code}) before opening its DevTools port`));
      });
    });
    const browser = await chromium.connectOverCDP(endpoint);
    return {
      newPage: (options) => browser.newPage(options),
      close: async () => {
        await browser.close().catch(() => {});
        close();
      },
    };
  } catch (error) {
    close();
    throw error;
  }
}

export function workbenchUrl(url, folder) {
  return `${url}?folder=${encodeURIComponent(folder)}`;
}
