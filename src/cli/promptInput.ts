import { flag, intFlag } from './commands/flags';
import { formatBytes, READ_LIMIT_BYTES, readInput, UsageError, type CliIo } from './io';

/**
 * Prompt files larger than this are not parsed or tokenised exactly (see docs/limits.md): the
 * slowest text to tokenise, base64, took 20 s for 4 MiB on a loaded 2-core machine, so 2 MiB keeps
 * the worst case well inside 30 s; a prompt this large (about 500K tokens of prose) already exceeds
 * most context windows.
 */
export const DEFAULT_MAX_FILE_BYTES = 2 * 1024 * 1024;
export const MAX_FILE_OPTION = { 'max-file-bytes': { type: 'string' } } as const;
export const MAX_FILE_USAGE = `[--max-file-bytes N (default ${DEFAULT_MAX_FILE_BYTES})]`;

export function maxFileBytesFlag(value: string | undefined): number {
  return value === undefined ? DEFAULT_MAX_FILE_BYTES : flag('max-file-bytes', value, intFlag(1, READ_LIMIT_BYTES));
}

export interface PromptInput {
  text: string;
  bytes: number;
  /** Over the --max-file-bytes limit: the caller estimates, skips or refuses it. */
  oversized: boolean;
}

/** Reads a prompt file named on the command line (see readInput) and says whether it is over `maxBytes`. */
export async function readPromptFile(io: CliIo, path: string, maxBytes: number): Promise<PromptInput> {
  const { text, bytes } = await readInput(io, path);
  return { text, bytes, oversized: bytes > maxBytes };
}

/** A prompt file that must be parsed whole (estimate, compare, bench): over the limit is a usage error. */
export async function readWholePrompt(io: CliIo, path: string, maxBytes: number): Promise<string> {
  const input = await readPromptFile(io, path, maxBytes);
  if (input.oversized) throw new UsageError(oversizedMessage(path, input.bytes, maxBytes));
  return input.text;
}

export function oversizedMessage(path: string, bytes: number, maxBytes: number): string {
  return `${path}: ${formatBytes(bytes)} is over --max-file-bytes ${maxBytes} (${formatBytes(maxBytes)})`;
}
