import { parseArgs } from 'node:util';
import { z } from 'zod';
import { promptTokenCounter } from '../../core/count';
import {
  columnsFor,
  compareTargets,
  PROFILE_NAMES,
  promptSloSettings,
  resolveProfile,
  selfHostedModel,
  type CompareResult,
  type SloSettings,
} from '../../core/compare';
import { parsePrompt } from '../../core/prompt/parse';
import { EXIT, UsageError, type CliIo } from '../io';
import { MAX_FILE_OPTION, MAX_FILE_USAGE, maxFileBytesFlag, readWholePrompt } from '../promptInput';
import { loadCliTables } from '../tables';
import { flag, intFlag, optionalFlag } from './flags';
import { PRICING_OPTIONS, PRICING_USAGE, pricingFlags } from './pricingFlags';

export const COMPARE_USAGE =
  'prompt-lens compare FILE [--profile interactive|batch] [--slo ttft=500,tpot=30] [--concurrency C] [--output-tokens M] [--model ID] [--cached N] ' +
  PRICING_USAGE +
  ' [--table FILE] [--json] ' +
  MAX_FILE_USAGE;

const OPTIONS = {
  profile: { type: 'string' },
  slo: { type: 'string' },
  concurrency: { type: 'string' },
  'output-tokens': { type: 'string' },
  model: { type: 'string' },
  cached: { type: 'string' },
  table: { type: 'string', multiple: true },
  json: { type: 'boolean', default: false },
  ...PRICING_OPTIONS,
  ...MAX_FILE_OPTION,
} as const;

/** `ttft=500,tpot=30`; `none` drops a limit. */
const sloLimits = z.string().transform((text, ctx) => {
  const out: Pick<SloSettings, 'ttftMs' | 'tpotMs'> = {};
  for (const part of text.split(',')) {
    const [key = '', raw = ''] = part.split('=').map((s) => s.trim());
    const value = raw === 'none' ? null : Number(raw);
    if (
      (key !== 'ttft' && key !== 'tpot') ||
      raw === '' ||
      (value !== null && !(Number.isFinite(value) && value > 0))
    ) {
      ctx.addIssue({ code: 'custom', message: `'${part}' is not ttft=MS or tpot=MS (a positive number, or none)` });
      return z.NEVER;
    }
    out[key === 'ttft' ? 'ttftMs' : 'tpotMs'] = value;
  }
  return out;
});

export async function compareCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new UsageError(`give one prompt FILE; usage: ${COMPARE_USAGE}`);
  const file = positionals[0] as string;
  const flags = sloSettings(values);
  const cached = optionalFlag('cached', values.cached, intFlag(0, 100_000_000)) ?? 0;
  const pricing = pricingFlags(values);

  const tables = await loadCliTables(values.table ?? [], io);
  const text = await readWholePrompt(io, file, maxFileBytesFlag(values['max-file-bytes']));
  const prompt = parsePrompt(file, text);
  // The file's own profile, if it names one; flags override it field by field.
  const fromFile = promptSloSettings(text);
  if (fromFile.problems.length > 0) throw new UsageError(`${file}: ${fromFile.problems.join('; ')}`);
  const settings = { ...fromFile.slo, ...flags };
  const model = selfHostedModel(tables, {
    ...(values.model !== undefined ? { chosen: values.model } : {}),
    ...(prompt.settings.model ? { promptModel: prompt.settings.model } : {}),
  });
  const result = compareTargets({
    tables,
    profile: resolveProfile(settings),
    countTokens: promptTokenCounter(prompt),
    cachedTokens: cached,
    ...(model ? { model } : {}),
    cacheTtl: pricing.cacheTtl,
    at: pricing.at,
  });
  io.out(values.json ? `${JSON.stringify(result, null, 2)}\n` : humanReport(file, result));
  return EXIT.ok;
}

function sloSettings(values: {
  profile?: string;
  slo?: string;
  concurrency?: string;
  'output-tokens'?: string;
}): SloSettings {
  return {
    ...(values.profile !== undefined
      ? {
          profile: flag(
            'profile',
            values.profile,
            z.enum(PROFILE_NAMES, { error: `must be one of ${PROFILE_NAMES.join(', ')}` }),
          ),
        }
      : {}),
    ...(values.slo !== undefined ? flag('slo', values.slo, sloLimits) : {}),
    ...(values.concurrency !== undefined
      ? { concurrency: flag('concurrency', values.concurrency, intFlag(1, 4096)) }
      : {}),
    ...(values['output-tokens'] !== undefined
      ? { outputTokens: flag('output-tokens', values['output-tokens'], intFlag(1, 1_000_000)) }
      : {}),
  };
}

function humanReport(file: string, result: CompareResult): string {
  // Kind is in the target id already (PROVIDER/MODEL or MODEL@HARDWARE).
  const columns = columnsFor(result.rows).filter((c) => c.key !== 'kind');
  const cells = [
    columns.map((c) => c.title),
    ...result.rows.map((r) =>
      columns.map((c) => (c.key === 'verdict' && !r.meetsSlo ? `✗ ${r.verdict}` : c.format(r))),
    ),
  ];
  const widths = columns.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? '').length)));
  const table = cells.map((line) =>
    line
      .map((cell, i) => (columns[i]?.numeric ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
  const meeting = result.rows.filter((r) => r.meetsSlo).length;
  const lines = [
    `${file}: ${meeting} of ${result.rows.length} targets meet the ${result.profile.name} SLO`,
    result.scenario,
    '',
    ...table,
  ];
  const notes = result.rows.flatMap((r) => r.notes.map((n) => `  ${r.target}: ${n}`));
  if (notes.length > 0) lines.push('', 'Notes:', ...notes);
  lines.push('', 'Assumptions:', ...result.assumptions.map((a) => `  ${a}`));
  if (result.skipped.length > 0) lines.push('', 'Left out:', ...result.skipped.map((s) => `  ${s}`));
  return `${lines.join('\n')}\n`;
}
