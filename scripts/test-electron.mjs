// `npm run test:electron`: the same integration suites in desktop VS Code via @vscode/test-electron,
// for machines with internet (it downloads VS Code 1.100.3). The offline route is `npm test`.
import { runTests } from '@vscode/test-electron';
import { join } from 'node:path';
import { buildTestRunner } from './build-test-runner.mjs';
import { ROOT, step } from './vscode-host.mjs';

step('building', 'npm', ['run', '--silent', 'build']);
await buildTestRunner();
const report = join(ROOT, '.test-output/electron-report.json');
await runTests({
  version: '1.100.3',
  extensionDevelopmentPath: ROOT,
  launchArgs: [join(ROOT, 'test/fixtures/workspace'), '--disable-extensions', '--disable-workspace-trust'],
  extensionTestsEnv: { PROMPT_LENS_ELECTRON_REPORT: report, PROMPT_LENS_MOCHA: join(ROOT, 'node_modules/mocha') },
  extensionTestsPath: join(ROOT, 'test/vscode-runner/dist/electron-entry.js'),
});
