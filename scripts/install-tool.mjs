// Installs a test tool's own package folder (tools/NAME: package.json, package-lock.json, .npmrc)
// with `npm ci`, apart from the project's packages, and skips it while the lockfile is unchanged.
// Usage: node scripts/install-tool.mjs tools/artillery node_modules/artillery/bin/run
// The folder's .npmrc decides what runs at install (Artillery's: no install scripts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const [folderArg, mustExist] = process.argv.slice(2);
if (!folderArg || !mustExist) {
  console.error('usage: node scripts/install-tool.mjs FOLDER FILE-THAT-MUST-EXIST-AFTER');
  process.exit(2);
}
const folder = resolve(folderArg);
const stamp = join(folder, 'node_modules', '.prompt-lens-lock-sha256');
const check = join(folder, mustExist);
const lockHash = createHash('sha256')
  .update(readFileSync(join(folder, 'package-lock.json')))
  .digest('hex');
if (existsSync(check) && existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash) process.exit(0);

// The parent npm's settings (npm_config_*, its project prefix above all) must not leak into this
// install: the folder is a project of its own.
const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
const started = performance.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: folder, env, stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`install-tool: npm ci in ${folderArg} failed (exit ${result.status ?? result.signal})`);
  process.exit(1);
}
if (!existsSync(check)) {
  console.error(`install-tool: ${check} is missing after the install`);
  process.exit(1);
}
writeFileSync(stamp, lockHash);
console.error(`install-tool: ${folderArg} installed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
