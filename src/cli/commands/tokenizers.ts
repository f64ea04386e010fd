import { parseArgs } from 'node:util';
import { CHAT_OVERHEAD } from '../../core/tokenize/chatOverhead';
import { listTokenizers } from '../../core/tokenize/registry';
import { EXIT, type CliIo } from '../io';

export const TOKENIZERS_USAGE = 'prompt-lens tokenizers [--json]';

/** Lists the tokenizer registry: id, exact or approximate (with its measured error), chat overhead rule. */
export async function tokenizersCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { json: { type: 'boolean', default: false } },
    allowPositionals: false,
    strict: true,
  });
  const rows = listTokenizers().map((t) => ({ ...t, chatOverhead: CHAT_OVERHEAD[t.id] }));
  if (values.json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
  } else {
    for (const t of rows)
      io.out(`${t.id}\t${t.exact ? 'exact' : 'approximate'}\t${t.description}${t.error ? ` (${t.error})` : ''}\n`);
  }
  return EXIT.ok;
}
