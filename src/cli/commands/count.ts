import { parseArgs } from 'node:util';
import { countPrompt, tokenizerIdFor, type PromptCount } from '../../core/count';
import { parsePrompt } from '../../core/prompt/parse';
import { getTokenizer, isTokenizerId } from '../../core/tokenize/registry';
import { TOKENIZER_IDS, type TokenizerId } from '../../core/tokenize/types';
import { EXIT, UsageError, type CliIo } from '../io';

export const COUNT_USAGE = 'prompt-lens count FILE... [--tokenizer ID] [--json]';

interface CountRow extends PromptCount {
  file: string;
}

export async function countCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false }, tokenizer: { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new UsageError(`no file given; usage: ${COUNT_USAGE}`);
  const forced = values.tokenizer === undefined ? undefined : tokenizerFlag(values.tokenizer);

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
    const parsed = parsePrompt(file, text);
    rows.push({ file, ...countPrompt(parsed, getTokenizer(forced ?? tokenizerIdFor(parsed))) });
  }

  if (values.json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const row of rows) io.out(`${textLine(row)}\n`);
  }
  return failed ? EXIT.usage : EXIT.ok;
}

function tokenizerFlag(value: string): TokenizerId {
  if (!isTokenizerId(value)) throw new UsageError(`unknown tokenizer '${value}'; valid: ${TOKENIZER_IDS.join(', ')}`);
  return value;
}

/** `1,234  ≈1,300 input  o200k_base  file  (3 messages; unfilled: name; 1 error)` */
function textLine(row: CountRow): string {
  const mark = row.exact ? '' : '≈';
  const notes = [
    `${row.messages.length} message${row.messages.length === 1 ? '' : 's'}`,
    ...(row.variables.length > 0 ? [`unfilled: ${row.variables.join(', ')}`] : []),
    ...(row.errors.length > 0 ? [`${row.errors.length} problem${row.errors.length === 1 ? '' : 's'}: ${row.errors[0]?.message ?? ''}`] : []),
  ];
  return `${mark}${row.contentTokens.toLocaleString('en-US')}\t${mark}${row.inputTokens.toLocaleString('en-US')} input\t${row.tokenizer}\t${row.file}\t(${notes.join('; ')})`;
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
