// Installs tools/llama-engine (node-llama-cpp 3.21.1 + its prebuilt linux-x64 CPU binary) with its own
// lockfile and .npmrc, so leaving out the other platforms' binaries (omit=optional) applies there
// only; skips the install when the lockfile has not changed since the last one. Registry only:
// the folder's .npmrc turns install scripts off, so nothing builds or downloads llama.cpp.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = fileURLToPath(new URL('../tools/llama-engine', import.meta.url));
const stamp = join(folder, 'node_modules', '.prompt-lens-lock-sha256');
const binary = join(folder, 'node_modules/@node-llama-cpp/linux-x64/bins/linux-x64/llama-addon.node');

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.error(
    `install-llama-engine: the engine tests use node-llama-cpp's prebuilt linux-x64 CPU binary; this is ${process.platform}-${process.arch}`,
  );
  process.exit(1);
}

const lockHash = createHash('sha256')
  .update(readFileSync(join(folder, 'package-lock.json')))
  .digest('hex');
if (existsSync(binary) && existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash) process.exit(0);

// The parent npm's settings (npm_config_*, above all its project prefix) must not leak into this
// install: it is a project of its own.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
const started = performance.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: folder, env, stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`install-llama-engine: npm ci in ${folder} failed (exit ${result.status ?? result.signal})`);
  process.exit(1);
}
if (!existsSync(binary)) {
  console.error(`install-llama-engine: ${binary} is missing after the install`);
  process.exit(1);
}
writeFileSync(stamp, lockHash);
console.error(`install-llama-engine: installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
