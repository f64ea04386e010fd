// Entry of the test-runner extension (test/vscode-runner): runs the integration suites with mocha
// inside the real extension host and writes a JSON report the harness waits for.
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';

interface TestOutcome {
  title: string;
  durationMs?: number;
  error?: string;
}

export interface IntegrationReport {
  vscodeVersion: string;
  appName: string;
  passes: TestOutcome[];
  failures: TestOutcome[];
  pending: number;
  durationMs: number;
  /** Set when the suites left work for after a window reload (`after-reload` suite). */
  reloadRequested?: boolean;
}

/** Written next to the report once the window may be reloaded; its presence marks the second phase. */
export const reloadMarker = (reportPath: string) => `${reportPath}.reload`;
export const afterReloadReport = (reportPath: string) => `${reportPath}.after-reload.json`;

type MochaCtor = new (options: Record<string, unknown>) => {
  addFile(file: string): void;
  run(done: (failures: number) => void): {
    on(
      event: 'pass' | 'fail' | 'pending',
      fn: (test: { fullTitle(): string; duration?: number }, error?: Error) => void,
    ): void;
  };
};

function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/**
 * Runs the suites bundled beside this file; resolves with the report it wrote. `phase` 'after-reload'
 * runs only the after-reload suite (the window was reloaded by the harness); otherwise every other
 * suite runs, then before-reload.js prepares what the after-reload suite checks.
 */
export async function runSuites(
  reportPath: string,
  mochaPath: string,
  phase: 'main' | 'after-reload' = 'main',
): Promise<IntegrationReport> {
  const Mocha = require(mochaPath) as MochaCtor; // the project's own mocha, by absolute path
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const suitesDir = join(__dirname, 'suites');
  // PROMPT_LENS_TEST_SUITES: comma-separated names to run; a leading '!' excludes a name instead.
  const filters = process.env.PROMPT_LENS_TEST_SUITES?.split(',').filter(Boolean) ?? [];
  const include = filters.filter((f) => !f.startsWith('!'));
  const exclude = filters.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
  for (const file of readdirSync(suitesDir)
    .filter((f) => f.endsWith('.test.js'))
    .sort()) {
    const name = file.slice(0, -'.test.js'.length);
    const wanted =
      phase === 'after-reload'
        ? name === 'after-reload'
        : name !== 'after-reload' && (include.length === 0 || include.includes(name)) && !exclude.includes(name);
    if (wanted) mocha.addFile(join(suitesDir, file));
  }
  const report: IntegrationReport = {
    vscodeVersion: vscode.version,
    appName: vscode.env.appName,
    passes: [],
    failures: [],
    pending: 0,
    durationMs: 0,
  };
  const started = Date.now();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (test) => report.passes.push({ title: test.fullTitle(), durationMs: test.duration }));
    runner.on('fail', (test, error) =>
      report.failures.push({ title: test.fullTitle(), error: error?.stack ?? String(error) }),
    );
    runner.on('pending', () => report.pending++);
  });
  report.durationMs = Date.now() - started;
  const reload =
    phase === 'main' && (include.length === 0 || include.includes('after-reload')) && !exclude.includes('after-reload');
  if (reload) {
    // Leaves work in flight (a benchmark) for the reload to interrupt; after-reload checks the result.
    const before = require(join(suitesDir, 'before-reload.js')) as { prepare(): Promise<void> };
    await before.prepare();
    report.reloadRequested = true;
    writeAtomically(reloadMarker(reportPath), '');
  }
  writeAtomically(reportPath, JSON.stringify(report, null, 2));
  return report;
}

export function activate(): void {
  const reportPath = process.env.PROMPT_LENS_TEST_REPORT;
  const mochaPath = process.env.PROMPT_LENS_MOCHA;
  if (!reportPath || !mochaPath) return;
  const phase = existsSync(reloadMarker(reportPath)) ? 'after-reload' : 'main';
  const target = phase === 'main' ? reportPath : afterReloadReport(reportPath);
  runSuites(phase === 'main' ? reportPath : target, mochaPath, phase).catch((error: unknown) => {
    writeAtomically(
      target,
      JSON.stringify({
        vscodeVersion: vscode.version,
        appName: vscode.env.appName,
        passes: [],
        failures: [{ title: 'runner', error: String((error as Error)?.stack ?? error) }],
        pending: 0,
        durationMs: 0,
      }),
    );
  });
}
