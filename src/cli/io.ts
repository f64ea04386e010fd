/** Where a CLI command writes and what it can read; injected so tests run commands in-process. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  readFile(path: string): Promise<string>;
  /**
   * Size in bytes, checked before a file is read; rejects with code ENOTREG for anything but a
   * regular file (a FIFO or /dev/zero would block or never end).
   */
  fileSize(path: string): Promise<number>;
  /**
   * Every file under `dir`, recursively, as paths relative to it with forward slashes; directories
   * named node_modules or .git are not entered and symbolic links are not followed. A sub-directory
   * that cannot be read is passed to `onUnreadable` (relative) and skipped; an unreadable `dir` rejects.
   */
  listFiles(dir: string, onUnreadable: (relativeDir: string) => void): Promise<string[]>;
  /** Writes a whole file (atomically: a reader never sees half of it), creating its folder. */
  writeFile(path: string, text: string): Promise<void>;
  env: Record<string, string | undefined>;
  cwd: string;
  /**
   * Monotonic milliseconds that calibration timings are read on (performance.now by default); tests give
   * the clock of a simulator on virtual time, so what they measure is exact under any load.
   */
  now?: () => number;
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

/** `partial`: a benchmark stopped by its time limit, Ctrl-C or SIGTERM (never a pass). */
export const EXIT = { ok: 0, findings: 1, usage: 2, partial: 3 } as const;

/** Never read: a file this large as a string would not fit in 2 GB with its parse. */
export const READ_LIMIT_BYTES = 256 * 1024 * 1024;

/**
 * Reads a file named on the command line: a regular file of at most READ_LIMIT_BYTES. Failure is a
 * usage error naming it (`label` says what it is, e.g. 'table ').
 */
export async function readInput(io: CliIo, path: string, label = ''): Promise<{ text: string; bytes: number }> {
  try {
    const bytes = await io.fileSize(path);
    if (bytes > READ_LIMIT_BYTES)
      throw new UsageError(
        `${label}${path}: ${formatBytes(bytes)} is too large to read (limit ${formatBytes(READ_LIMIT_BYTES)})`,
      );
    return { text: await io.readFile(path), bytes };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot read ${label}${path}: ${describeFsError(error)}`);
  }
}

/** A file-system error in words, one line. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTREG':
      return 'not a regular file';
    default:
      return code ?? (error instanceof Error ? (error.message.split('\n')[0] ?? 'error') : String(error));
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
