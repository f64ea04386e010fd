import type { CliIo } from '../../../src/cli/io';

/** A CliIo over an in-memory file map (absolute paths, '/' as the root) that records what the command printed. */
export function memoryIo(files: Record<string, string>): CliIo & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
    async readFile(path: string) {
      const text = files[path];
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return text;
    },
    async fileSize(path: string) {
      return Buffer.byteLength(await io.readFile(path));
    },
    async listFiles(dir: string) {
      const prefix = dir.endsWith('/') ? dir : `${dir}/`;
      const under = Object.keys(files)
        .filter((path) => path.startsWith(prefix))
        .map((path) => path.slice(prefix.length));
      if (under.length === 0) throw Object.assign(new Error(`ENOENT: ${dir}`), { code: 'ENOENT' });
      return under.filter((path) => !path.split('/').some((part) => part === 'node_modules' || part === '.git'));
    },
    async writeFile(path: string, text: string) {
      files[path] = text;
    },
    env: {},
    cwd: '/',
  };
  return io;
}
