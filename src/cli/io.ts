/** Where a CLI command writes and what it can read; injected so tests run commands in-process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): Promise<string>;
  /**
   * Every file under `dir`, recursively, as paths relative to it with forward slashes; directories
   * named node_modules or .git are not entered and symbolic links are not followed.
   */
  listFiles(dir: string): Promise<string[]>;
  env: Record<string, string | undefined>;
  cwd: string;
}

/** A bad invocation: printed as one line, exit code 2, never a stack trace. */
export class UsageError extends Error {}

export const EXIT = { ok: 0, findings: 1, usage: 2 } as const;

/** Reads a file named on the command line; failure is a usage error naming the file. */
export async function readInput(io: CliIo, path: string): Promise<string> {
  try {
    return await io.readFile(path);
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}
