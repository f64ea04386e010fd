// `npm start`: builds and packages the extension, installs it into a local VS Code and opens
// examples/. Default: code-server (a full VS Code in the browser) bound to 127.0.0.1 — auth is off
// because nothing but this machine can reach it. `npm start -- --desktop`: installs into the
// desktop `code` on PATH instead.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import {
  HarnessError,
  HOST_DIR,
  ROOT,
  ensureCodeServer,
  installExtensions,
  packageExtension,
  startCodeServer,
  step,
} from './vscode-host.mjs';

const args = process.argv.slice(2);
const desktop = args.includes('--desktop');
const portArg = args.find((a) => a.startsWith('--port='));
const port = Number(portArg?.slice('--port='.length) ?? process.env.PORT ?? 3210);
const EXAMPLES = join(ROOT, 'examples');
const SIM_TARGET = 'llama-3.1-8b@1xh100-sxm';

async function main() {
  const vsix = packageExtension();
  if (desktop) {
    const code = spawnSync('code', ['--version'], { encoding: 'utf8' });
    if (code.error || code.status !== 0)
      throw new HarnessError(
        '--desktop needs the `code` command on PATH (VS Code: "Shell Command: Install \'code\' command in PATH")',
      );
    step('installing into desktop VS Code', 'code', ['--install-extension', vsix, '--force']);
    step('opening examples/', 'code', [EXAMPLES]);
    console.log(`Installed ${vsix} into desktop VS Code ${code.stdout.split('\n')[0]} and opened ${EXAMPLES}.`);
    return;
  }
  step('installing system packages', 'bash', [join(ROOT, 'scripts/install-system-deps.sh')]);
  ensureCodeServer();
  const extensionsDir = join(HOST_DIR, 'start/extensions');
  installExtensions(extensionsDir, [vsix]);
  // The examples' endpoint: a simulated llama-3.1-8b on one H100, from the estimation engine.
  const sim = spawn(
    process.execPath,
    [join(ROOT, 'dist/cli.js'), 'serve-sim', '--port', '8765', '--target', SIM_TARGET],
    { stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const server = await startCodeServer({
    port,
    userDataDir: join(HOST_DIR, 'start/user-data'),
    extensionsDir,
    folder: EXAMPLES,
    log: 'inherit',
  });
  const url = `${server.url}?folder=${encodeURIComponent(EXAMPLES)}`;
  console.log(`\nPrompt Latency Lens is running in VS Code (code-server) at:\n\n  ${url}\n`);
  console.log(
    `The examples benchmark against a local simulator of ${SIM_TARGET} at http://127.0.0.1:8765/v1 (simulated latencies, not a real model).`,
  );
  console.log('Bound to 127.0.0.1 only, so authentication is off. Press Ctrl+C to stop.');
  const stop = () => {
    sim.kill();
    server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise((resolve) => server.child.on('exit', resolve));
}

main().catch((error) => {
  console.error(`npm start: ${error instanceof HarnessError ? error.message : (error?.stack ?? error)}`);
  process.exit(1);
});
