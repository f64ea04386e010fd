// `npm start`: builds and packages the extension, installs it into a local VS Code and opens
// examples/. Default: code-server (a full VS Code in the browser) bound to 127.0.0.1 — auth is off
// because nothing but this machine can reach it. `npm start -- --desktop`: installs into the
// desktop `code` on PATH instead.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { HarnessError, HOST_DIR, ROOT, ensureCodeServer, installExtensions, packageExtension, startCodeServer, step } from './vscode-host.mjs';

const args = process.argv.slice(2);
const desktop = args.includes('--desktop');
const portArg = args.find((a) => a.startsWith('--port='));
const port = Number(portArg?.slice('--port='.length) ?? process.env.PORT ?? 3210);
const EXAMPLES = join(ROOT, 'examples');

async function main() {
  const vsix = packageExtension();
  if (desktop) {
    const code = spawnSync('code', ['--version'], { encoding: 'utf8' });
    if (code.error || code.status !== 0) throw new HarnessError('--desktop needs the `code` command on PATH (VS Code: "Shell Command: Install \'code\' command in PATH")');
    step('installing into desktop VS Code', 'code', ['--install-extension', vsix, '--force']);
    step('opening examples/', 'code', [EXAMPLES]);
    console.log(`Installed ${vsix} into desktop VS Code ${code.stdout.split('\n')[0]} and opened ${EXAMPLES}.`);
    return;
  }
  step('installing system packages', 'bash', [join(ROOT, 'scripts/install-system-deps.sh')]);
  ensureCodeServer();
  const extensionsDir = join(HOST_DIR, 'start/extensions');
  installExtensions(extensionsDir, [vsix]);
  const server = await startCodeServer({ port, userDataDir: join(HOST_DIR, 'start/user-data'), extensionsDir, folder: EXAMPLES, log: 'inherit' });
  const url = `${server.url}?folder=${encodeURIComponent(EXAMPLES)}`;
  console.log(`\nPrompt Latency Lens is running in VS Code (code-server) at:\n\n  ${url}\n`);
  console.log('Bound to 127.0.0.1 only, so authentication is off. Press Ctrl+C to stop.');
  const stop = () => {
    server.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise((resolve) => server.child.on('exit', resolve));
}

main().catch((error) => {
  console.error(`npm start: ${error instanceof HarnessError ? error.message : error?.stack ?? error}`);
  process.exit(1);
});
