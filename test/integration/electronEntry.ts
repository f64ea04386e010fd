// extensionTestsPath for @vscode/test-electron (`npm run test:electron`): the same suites, same report.
import { runSuites } from './runner';

export async function run(): Promise<void> {
  const report = await runSuites(
    process.env.PROMPT_LENS_ELECTRON_REPORT ?? '.test-output/electron-report.json',
    process.env.PROMPT_LENS_MOCHA ?? 'mocha',
  );
  if (report.failures.length > 0)
    throw new Error(
      `${report.failures.length} integration test(s) failed: ${report.failures.map((f) => f.title).join('; ')}`,
    );
  if (report.passes.length === 0) throw new Error('ran no test');
}
