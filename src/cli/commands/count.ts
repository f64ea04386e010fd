import { parseArgs } from 'node:util';
import { countText } from '../../core/count';
import { DEFAULT_TOKENIZER, getTokenizer } from '../../core/tokenize/registry';
import { EXIT, UsageError, type CliIo } from '../io';

export const COUNT_USAGE = 'prompt-lens count FILE... [--json]';

interface CountRow {
  file: string;
  tokenizer: string;
  exact: boolean;
  contentTokens: number;
}

export async function countCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { json: { type: 'boolean', default: false } }, allowPositionals: true, strict: true });
  if (positionals.length === 0) throw new UsageError(`no file given; usage: ${COUNT_USAGE}`);

  const tokenizer = getTokenizer(DEFAULT_TOKENIZER);
  const rows: CountRow[] = [];
  let failed = false;
  for (const file of positionals) {
    let text: string;
    try {
      text = await io.readFile(file);
    } catch (error) {
      failed = true;
      io.err(`prompt-lens: cannot read ${file}: ${describeFsError(error)}\n`);
      continue;
    }
    rows.push({ file, ...countText(text, tokenizer) });
  }

  if (values.json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const row of rows) io.out(`${row.contentTokens.toLocaleString('en-US')}\t${row.tokenizer}\t${row.file}\n`);
  }
  return failed ? EXIT.usage : EXIT.ok;
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return code ?? (error instanceof Error ? error.message : String(error));
  }
}
