import { join } from 'node:path';
import type { ReportFileInput } from '../core/findings/report';
import type { CliIo } from './io';
import { oversizedMessage } from './promptInput';

/**
 * Every prompt file under `root` (those `isPrompt` accepts), sorted, with its text. Findings need
 * the whole parse, so a file over `maxBytes` is left out, never half-analysed; what is skipped is
 * passed to `warn` and makes `complete` false when it could not be read.
 */
export async function readPromptTree(
  io: CliIo,
  root: string,
  isPrompt: (path: string) => boolean,
  maxBytes: number,
  warn: (message: string) => void,
): Promise<{ inputs: ReportFileInput[]; complete: boolean }> {
  let complete = true;
  const paths = await io.listFiles(root, (dir) => {
    complete = false;
    warn(`cannot read directory ${dir}; skipped`);
  });
  const inputs: ReportFileInput[] = [];
  for (const path of paths.filter(isPrompt).sort()) {
    try {
      const bytes = await io.fileSize(join(root, path));
      if (bytes > maxBytes) warn(`${oversizedMessage(path, bytes, maxBytes)}; skipped`);
      else inputs.push({ path, text: await io.readFile(join(root, path)) });
    } catch {
      complete = false;
      warn(`cannot read ${path}; skipped`);
    }
  }
  return { inputs, complete };
}
