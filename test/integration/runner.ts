// Entry of the test-runner extension (test/vscode-runner): runs the integration suites with mocha
// inside the real extension host and writes a JSON report the harness waits for.
import { mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
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
}

type MochaCtor = new (options: Record<string, unknown>) => {
  addFile(file: string): void;
  run(done: (failures: number) => void): {
    on(event: 'pass' | 'fail' | 'pending', fn: (test: { fullTitle(): string; duration?: number }, error?: Error) => void): void;
  };
};

function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

/** Runs the suites bundled beside this file; resolves with the report it wrote. */
export async function runSuites(reportPath: string, mochaPath: string): Promise<IntegrationReport> {
  const Mocha = require(mochaPath) as MochaCtor; // the project's own mocha, by absolute path
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: 'spec' });
  const suitesDir = join(__dirname, 'suites');
  // PROMPT_LENS_TEST_SUITES: comma-separated names to run; a leading '!' excludes a name instead.
  const filters = process.env.PROMPT_LENS_TEST_SUITES?.split(',').filter(Boolean) ?? [];
  const include = filters.filter((f) => !f.startsWith('!'));
  const exclude = filters.filter((f) => f.startsWith('!')).map((f) => f.slice(1));
  for (const file of readdirSync(suitesDir).filter((f) => f.endsWith('.test.js')).sort()) {
    const name = file.slice(0, -'.test.js'.length);
    if ((include.length === 0 || include.includes(name)) && !exclude.includes(name)) mocha.addFile(join(suitesDir, file));
  }
  const report: IntegrationReport = { vscodeVersion: vscode.version, appName: vscode.env.appName, passes: [], failures: [], pending: 0, durationMs: 0 };
  const started = Date.now();
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (test) => report.passes.push({ title: test.fullTitle(), durationMs: test.duration }));
    runner.on('fail', (test, error) => report.failures.push({ title: test.fullTitle(), error: error?.stack ?? String(error) }));
    runner.on('pending', () => report.pending++);
  });
  report.durationMs = Date.now() - started;
  writeAtomically(reportPath, JSON.stringify(report, null, 2));
  return report;
}

export function activate(): void {
  const reportPath = process.env.PROMPT_LENS_TEST_REPORT;
  const mochaPath = process.env.PROMPT_LENS_MOCHA;
  if (!reportPath || !mochaPath) return;
  runSuites(reportPath, mochaPath).catch((error: unknown) => {
    writeAtomically(reportPath, JSON.stringify({ vscodeVersion: vscode.version, appName: vscode.env.appName, passes: [], failures: [{ title: 'runner', error: String((error as Error)?.stack ?? error) }], pending: 0, durationMs: 0 }));
  });
}
