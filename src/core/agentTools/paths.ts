import { isAbsolute, relative, sep } from 'node:path';

/**
 * A real (symbolic links resolved) path's name under a root, with forward slashes ('.' for the root itself), or
 * undefined when it is outside: the one check both adapters make before reading a file an agent names.
 */
export function pathUnder(root: string, real: string): string | undefined {
  const rel = relative(root, real);
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/') || '.';
}
