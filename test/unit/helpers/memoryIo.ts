import type { CliIo } from '../../../src/cli/io';

/** A CliIo over an in-memory file map that records what the command printed. */
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
    env: {},
    cwd: '/',
  };
  return io;
}
