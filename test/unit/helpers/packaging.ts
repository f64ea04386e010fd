import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import picomatch from 'picomatch';

/** The repository root, where package.json, package.nls.json and .vscodeignore are. */
export const ROOT = join(__dirname, '../../..');

/** Whether .vscodeignore (a whitelist: `**`, then `!path` lines) lets `path` into the VSIX. */
export function packaged(path: string): boolean {
  const lines = readFileSync(join(ROOT, '.vscodeignore'), 'utf8').split('\n');
  return lines.filter((l) => l.startsWith('!')).some((l) => picomatch(l.slice(1))(path));
}

/** The English text of a manifest `%key%` placeholder, from package.nls.json (undefined if it has none). */
export function localised(value: string): string | undefined {
  const nls = JSON.parse(readFileSync(join(ROOT, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const key = /^%([^%\s]+)%$/.exec(value)?.[1];
  return key === undefined ? undefined : nls[key];
}
