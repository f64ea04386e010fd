/** Where a CLI command writes and what it can read; injected so tests run commands in-process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): Promise<string>;
  /** Size in bytes, checked before a prompt file is read (see promptInput.ts). */
  fileSize(path: string): Promise<number>;
  /**
   * Every file under `dir`, recursively, as paths relative to it with forward slashes; directories
   * named node_modules or .git are not entered and symbolic links are not followed.
   */
  listFiles(dir: string): Promise<string[]>;
  env: Record<string, string | undefined>;
  cwd: string;
}

/**
 * Text for a terminal: C0/C1 control characters other than tab and newline (ANSI escapes, carriage
 * returns, NUL) and bidirectional overrides from prompt files or endpoint replies become U+FFFD, so
 * a hostile file cannot rewrite or reorder what the user sees. JSON output is unaffected: it
 * escapes controls itself.
 */
export function terminalSafe(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '\uFFFD');
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
