// `npm run test:integration`: runs the integration suites inside a real VS Code (code-server 4.100.3,
// VS Code 1.100.x) with this extension installed from its .vsix, Chromium as the window.
// Prints the VS Code version and mocha's summary; exits non-zero on any failure or timeout and always
// shuts its servers down. Screenshots land in .test-output/screenshots (ignored).
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTestRunner } from './build-test-runner.mjs';
import {
  CODE_SERVER_VERSION,
  HarnessError,
  ROOT,
  HOST_DIR,
  codeServerVersion,
  ensureCodeServer,
  freePort,
  installExtensions,
  launchChromium,
  packageExtension,
  startCodeServer,
  workbenchUrl,
} from './vscode-host.mjs';

// A hang guard for a whole session's report, not a timing check: the trusted session runs every suite but one
// (over 300 s on this 2-core machine once the suites grew); each test has its own mocha timeout.
const TIMEOUT_MS = Number(process.env.PROMPT_LENS_TEST_TIMEOUT_MS ?? 900_000);
const OUTPUT = join(ROOT, '.test-output');
const SCREENSHOTS = join(OUTPUT, 'screenshots');

/** One VS Code session over a copy of a fixture workspace; returns the runner's report. */
async function runSession({ name, workspace, trusted, suites }) {
  const runDir = join(HOST_DIR, 'runs', name);
  rmSync(runDir, { recursive: true, force: true });
  const folder = join(runDir, 'workspace');
  cpSync(workspace, folder, { recursive: true });
  const extensionsDir = join(runDir, 'extensions');
  installExtensions(extensionsDir, [EXTENSION_VSIX, RUNNER_VSIX]);
  const reportPath = join(runDir, 'report.json');
  const port = await freePort();
  const server = await startCodeServer({
    port,
    userDataDir: join(runDir, 'user-data'),
    extensionsDir,
    folder,
    trusted,
    log: 'pipe',
    env: {
      PROMPT_LENS_TEST_REPORT: reportPath,
      PROMPT_LENS_MOCHA: join(ROOT, 'node_modules/mocha'),
      PROMPT_LENS_SCREENSHOT_DIR: SCREENSHOTS,
      PROMPT_LENS_TEST_SUITES: suites,
    },
  });
  const serverLog = [];
  server.child.stdout.on('data', (d) => serverLog.push(d));
  server.child.stderr.on('data', (d) => serverLog.push(d));
  let browser;
  try {
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    // The workbench page can take minutes to load on a loaded machine; the report deadline below bounds the run.
    await page.goto(workbenchUrl(server.url, folder), { timeout: TIMEOUT_MS });
    const waitForReport = async (path) => {
      const deadline = Date.now() + TIMEOUT_MS;
      while (!existsSync(path)) {
        if (Date.now() > deadline) {
          process.stderr.write(Buffer.concat(serverLog).toString().slice(-4000));
          throw new HarnessError(`[${name}] no report from the extension host within ${TIMEOUT_MS / 1000} s`);
        }
        await serveRequests(page);
        await new Promise((r) => setTimeout(r, 200));
      }
      return JSON.parse(readFileSync(path, 'utf8'));
    };
    const report = await waitForReport(reportPath);
    if (!report.reloadRequested) return report;
    // The suites left a benchmark running: reload the window (a new extension host) mid-run, then
    // collect the after-reload suite's report.
    await page.reload();
    const after = await waitForReport(`${reportPath}.after-reload.json`);
    return {
      ...report,
      passes: [...report.passes, ...after.passes],
      failures: [...report.failures, ...after.failures],
    };
  } finally {
    await browser?.close().catch(() => {});
    server.stop();
  }
}

/**
 * Requests from the suites, which cannot reach the browser themselves:
 * NAME.request → NAME.png (a screenshot of the workbench);
 * NAME.query.json {selector} → NAME.result.json {frames, texts}: textContent of every element matching
 * the selector inside the webview frames (real Chromium DOM), plus `scripted` = any frame where the
 * test page's XSS canary (window.__promptLensXss) was set;
 * NAME.click.json {selector} → NAME.result.json {clicked}: a real mouse click on the first match;
 * NAME.button.json {selector: label} → NAME.result.json {clicked}: clicks a workbench button (a dialog's);
 * NAME.workbench.json {selector} → NAME.result.json {elements: [{text, attributes, box, window}]}: the rendered text
 * (innerText) and attributes of every element matching the selector in the workbench page itself (not webviews).
 * NAME.measure.json and NAME.viewport.json: see HANDLERS.
 */
async function serveRequests(page) {
  if (!existsSync(SCREENSHOTS)) return;
  for (const file of readdirSync(SCREENSHOTS)) {
    if (file.endsWith('.request')) {
      const name = file.slice(0, -'.request'.length);
      rmSync(join(SCREENSHOTS, file));
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
      console.log(`screenshot: .test-output/screenshots/${name}.png`);
      continue;
    }
    const kind = Object.keys(HANDLERS).find((k) => file.endsWith(`.${k}.json`));
    if (!kind) continue;
    let selector;
    try {
      ({ selector } = JSON.parse(readFileSync(join(SCREENSHOTS, file), 'utf8')));
    } catch {
      continue; // still being written: next poll
    }
    rmSync(join(SCREENSHOTS, file));
    const name = file.slice(0, -`.${kind}.json`.length);
    const result = await HANDLERS[kind](page, selector);
    writeFileSync(join(SCREENSHOTS, `${name}.result.json.tmp`), JSON.stringify(result));
    renameSync(join(SCREENSHOTS, `${name}.result.json.tmp`), join(SCREENSHOTS, `${name}.result.json`));
  }
}

const isWebviewFrame = (frame) => /vscode-webview|\/webview\/browser\/pre\//.test(frame.url()); // desktop and web hosts

/* global document, window -- HANDLERS' callbacks to frame.evaluate run in the webview page */
const HANDLERS = {
  async query(page, selector) {
    const result = { frames: 0, texts: [], scripted: false };
    for (const frame of page.frames().filter(isWebviewFrame)) {
      try {
        const found = await frame.evaluate(
          (sel) => ({
            texts: [...document.querySelectorAll(sel)].map((e) => e.textContent ?? ''),
            xss: Boolean(window.__promptLensXss),
          }),
          selector,
        );
        if (found.texts.length > 0) result.frames++;
        result.texts.push(...found.texts);
        result.scripted ||= found.xss;
      } catch {
        /* a frame navigating away */
      }
    }
    return result;
  },
  // NAME.measure.json {selector} → {frames, viewport, boxes}: where the matches are laid out, and the width and
  // height of the webview's own window (the editor group it fills).
  async measure(page, selector) {
    const result = { frames: 0, viewport: undefined, boxes: [] };
    for (const frame of page.frames().filter(isWebviewFrame)) {
      try {
        const found = await frame.evaluate(
          (sel) => ({
            viewport: { width: window.innerWidth, height: window.innerHeight },
            boxes: [...document.querySelectorAll(sel)].map((e) => {
              const r = e.getBoundingClientRect();
              return { x: r.x, y: r.y, width: r.width, height: r.height, text: e.textContent ?? '' };
            }),
          }),
          selector,
        );
        if (found.boxes.length === 0) continue;
        result.frames++;
        result.viewport = found.viewport;
        result.boxes.push(...found.boxes);
      } catch {
        /* a frame navigating away */
      }
    }
    return result;
  },
  // NAME.viewport.json {selector: 'WIDTHxHEIGHT'} → {width, height}: resizes the browser window's page.
  async viewport(page, size) {
    const [width, height] = String(size).split('x').map(Number);
    await page.setViewportSize({ width, height });
    return { width, height };
  },
  async click(page, selector) {
    for (const frame of page.frames().filter(isWebviewFrame)) {
      const handle = await frame.$(selector).catch(() => null);
      if (handle) {
        await handle.click();
        return { clicked: true };
      }
    }
    return { clicked: false };
  },
  async workbench(page, selector) {
    const elements = await page
      .$$eval(selector, (found) =>
        found.map((e) => {
          const r = e.getBoundingClientRect();
          return {
            text: e.innerText,
            attributes: Object.fromEntries([...e.attributes].map((a) => [a.name, a.value])),
            box: { x: r.x, y: r.y, width: r.width, height: r.height },
            window: { width: window.innerWidth, height: window.innerHeight },
          };
        }),
      )
      .catch(() => []);
    return { elements };
  },
  async button(page, label) {
    const clicked = await page
      .getByRole('button', { name: label, exact: true })
      .first()
      .click({ timeout: 5000 })
      .then(
        () => true,
        () => false,
      );
    return { clicked };
  },
};

let EXTENSION_VSIX;
let RUNNER_VSIX;

async function main() {
  ensureCodeServer();
  EXTENSION_VSIX = packageExtension();
  RUNNER_VSIX = await buildTestRunner();
  rmSync(SCREENSHOTS, { recursive: true, force: true });
  rmSync(join(OUTPUT, 'editor-bench.json'), { force: true });
  mkdirSync(SCREENSHOTS, { recursive: true });

  // --suites=a,b (or PROMPT_LENS_TEST_SUITES) narrows the run to named suites, e.g. `benchmark,untrusted`;
  // `perf` (editor responsiveness figures) runs only when named.
  const fromArgs = process.argv.find((a) => a.startsWith('--suites='))?.slice('--suites='.length);
  const requested = (fromArgs ?? process.env.PROMPT_LENS_TEST_SUITES)?.split(',').filter(Boolean);
  const trustedSuites = requested ? requested.filter((n) => n !== 'untrusted').join(',') : '!untrusted,!perf';
  const sessions = [
    {
      name: 'trusted',
      workspace: join(ROOT, 'test/fixtures/workspace'),
      trusted: true,
      suites: trustedSuites,
      run: !requested || trustedSuites !== '',
    },
    {
      name: 'untrusted',
      workspace: join(ROOT, 'test/fixtures/untrusted'),
      trusted: false,
      suites: 'untrusted',
      run: !requested || requested.includes('untrusted'),
    },
  ].filter((s) => s.run);
  let passed = 0;
  let failed = 0;
  for (const session of sessions) {
    const report = await runSession(session);
    console.log(
      `\n[${session.name}] ran in VS Code ${report.vscodeVersion} (${report.appName} ${codeServerVersion()})`,
    );
    for (const t of report.passes) console.log(`  ✔ ${t.title}`);
    for (const t of report.failures) console.log(`  ✖ ${t.title}\n${indent(t.error ?? '')}`);
    if (report.passes.length + report.failures.length === 0) throw new HarnessError(`[${session.name}] ran no test`);
    passed += report.passes.length;
    failed += report.failures.length;
  }
  writeFileSync(join(OUTPUT, 'integration-summary.json'), JSON.stringify({ passed, failed }));
  const bench = join(OUTPUT, 'editor-bench.json');
  if (requested?.includes('perf') && existsSync(bench))
    console.log(
      `\nEditor responsiveness (real VS Code ${CODE_SERVER_VERSION} host, this machine):\n${readFileSync(bench, 'utf8')}`,
    );
  console.log(`\nintegration: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

function indent(text) {
  return text
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(`integration harness: ${error instanceof HarnessError ? error.message : (error?.stack ?? error)}`);
    process.exit(1);
  },
);
