import { parseArgs } from 'node:util';
import { countFile } from '../../core/agentTools/run';
import type { PromptCount } from '../../core/count';
import { basisTokens, tokenCorrection, type CalibrationFile } from '../../core/calibrate/profileFile';
import { correctCount, correctionDetail, isApproximateTokenizer } from '../../core/calibrate/tokenCorrection';
import { namesTarget, parseTargetId, resolveTarget, targetModelId, targetTokenizer } from '../../core/estimate';
import { markCorrected } from '../../core/format';
import { listNames } from '../../core/prompt/variables';
import { withChatOverhead } from '../../core/tokenize/chatOverhead';
import { getTokenizer, isTokenizerId } from '../../core/tokenize/registry';
import { estimateFromSamples, SAMPLE_WINDOWS } from '../../core/tokenize/sampled';
import { TOKENIZER_IDS, type TokenizerId } from '../../core/tokenize/types';
import { EXIT, formatBytes, UsageError, type CliIo } from '../io';
import { loadCliTables } from '../tables';
import { readCalibrationProfile } from './estimateCalibrated';
import { MAX_FILE_OPTION, MAX_FILE_USAGE, maxFileBytesFlag, oversizedMessage, readPromptFile } from '../promptInput';

export const COUNT_USAGE = `prompt-lens count FILE... [--tokenizer ID | [--target ID] [--calibration PROFILE.json] [--table FILE]...] [--json | --tsv] ${MAX_FILE_USAGE}`;

interface CountRow extends PromptCount {
  file: string;
  /** Why a count is approximate beyond its tokenizer (a file over the size limit). */
  notes: string[];
}

export async function countCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    options: {
      json: { type: 'boolean', default: false },
      tsv: { type: 'boolean', default: false },
      tokenizer: { type: 'string' },
      target: { type: 'string' },
      calibration: { type: 'string' },
      table: { type: 'string', multiple: true },
      ...MAX_FILE_OPTION,
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length === 0) throw new UsageError(`no file given; usage: ${COUNT_USAGE}`);
  if (values.json && values.tsv) throw new UsageError(`--json or --tsv, not both; usage: ${COUNT_USAGE}`);
  if (values.tokenizer !== undefined && (values.target !== undefined || values.calibration !== undefined))
    throw new UsageError(`--tokenizer or --target/--calibration, not both; usage: ${COUNT_USAGE}`);
  const calibration =
    values.calibration === undefined ? undefined : await readCalibrationProfile(values.calibration, io);
  // --target counts as the editor does for that target: its tokenizer, the same count (core/count.ts); with
  // --calibration alone, the target the profile calibrated.
  const targetId = values.target ?? calibration?.target;
  if (calibration && targetId === undefined)
    throw new UsageError(`${values.calibration} names no target: give --target; usage: ${COUNT_USAGE}`);
  const tables = targetId === undefined ? undefined : await loadCliTables(values.table ?? [], io);
  const target = targetId === undefined || !tables ? undefined : resolveTarget(parseTargetId(targetId), tables);
  if (calibration?.target !== undefined && target && tables && !namesTarget(calibration.target, target, tables))
    throw new UsageError(
      `${values.calibration} calibrates ${calibration.target}, not ${target.id}; leave out --target to use the profile's`,
    );
  const forced = target
    ? targetTokenizer(target)
    : values.tokenizer === undefined
      ? undefined
      : tokenizerFlag(values.tokenizer);
  const model = target ? targetModelId(target) : undefined;
  const maxBytes = maxFileBytesFlag(values['max-file-bytes']);

  const rows: CountRow[] = [];
  let failed = false;
  for (const file of positionals) {
    try {
      const input = await readPromptFile(io, file, maxBytes);
      const row = input.oversized
        ? oversizedRow(file, input.text, input.bytes, maxBytes, forced)
        : parsedRow(file, input.text, forced, model);
      rows.push(calibration ? corrected(row, calibration, values.calibration!) : row);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      failed = true;
      io.err(`prompt-lens: ${error.message}\n`);
    }
  }

  if (values.json) io.out(`${JSON.stringify(rows, null, 2)}\n`);
  else if (values.tsv) io.out(tsv(rows));
  else if (rows.length > 0) io.out(table(rows));
  return failed ? EXIT.usage : EXIT.ok;
}

function parsedRow(file: string, text: string, forced: TokenizerId | undefined, model: string | undefined): CountRow {
  const count = countFile({ path: file, text }, forced, model);
  // Why the count is approximate beyond the tokenizer (declared tools or response format), said on the row.
  return { file, ...count, notes: (count.approximations ?? []).map((why) => `≈ ${why}`) };
}

/**
 * The row as the target's endpoint bills it: through the per-endpoint correction the profile carries
 * (core/calibrate/tokenCorrection.ts: fitted on Benchmark This Prompt's billed usage, exported with the calibration),
 * the one the editor's surfaces and `estimate --calibration` apply: approximate counts only, marked "corrected from
 * N requests"; else through the profile's own map of billed on local tokens, when it has one for this tokenizer;
 * otherwise the row says why not.
 */
function corrected(row: CountRow, profile: CalibrationFile, path: string): CountRow {
  const correction = profile.correction;
  const fixed = correctCount(row, correction);
  if (fixed.corrected) return { ...row, ...fixed, notes: [...row.notes, correctionDetail(fixed.corrected)] };
  // Else a profile fitted on the endpoint's reported prompt tokens maps this tokenizer's counts onto them, as
  // `estimate --calibration` does: both commands give one count for the same file and profile.
  const mapped = tokenCorrection(profile);
  if (mapped && row.tokenizer === profile.tokens.localTokenizer) {
    const note = `endpoint tokens: ${row.inputTokens.toLocaleString('en-US')} ${row.tokenizer} tokens ${mapped}`;
    return { ...row, inputTokens: basisTokens(profile, row.inputTokens), exact: false, notes: [...row.notes, note] };
  }
  const why = !correction
    ? `${path} has no token correction (Export Calibration… writes one after Benchmark This Prompt runs)`
    : !isApproximateTokenizer(row.tokenizer)
      ? `${row.tokenizer} is exact (only approximate counts are corrected)`
      : `${path}'s correction is for ${correction.tokenizer} counts`;
  return { ...row, notes: [...row.notes, `not corrected: ${why}`] };
}

/** Not parsed: the raw text as one message, its tokens estimated from samples. */
function oversizedRow(
  file: string,
  text: string,
  bytes: number,
  maxBytes: number,
  forced: TokenizerId | undefined,
): CountRow {
  const tokenizer = getTokenizer(forced ?? 'o200k_base');
  const tokens = estimateFromSamples(text, tokenizer);
  return {
    file,
    tokenizer: tokenizer.id,
    exact: false,
    contentTokens: tokens,
    inputTokens: withChatOverhead(tokens, 1, tokenizer.id),
    messages: [{ role: 'user', tokens }],
    variables: [],
    errors: [],
    notes: [
      `${oversizedMessage(file, bytes, maxBytes)}: not parsed; tokens estimated from ${SAMPLE_WINDOWS} samples of the raw text (${formatBytes(bytes)})`,
    ],
  };
}

function tokenizerFlag(value: string): TokenizerId {
  if (!isTokenizerId(value)) throw new UsageError(`unknown tokenizer '${value}'; valid: ${TOKENIZER_IDS.join(', ')}`);
  return value;
}

const HEADER = ['content', 'input', 'tokenizer', 'file', 'notes'];

/** "3 messages; unfilled: name; 1 problem: …" */
function notesOf(row: CountRow): string {
  return [
    `${row.messages.length} message${row.messages.length === 1 ? '' : 's'}`,
    ...(row.variables.length > 0 ? [`unfilled: ${listNames(row.variables)}`] : []),
    ...(row.errors.length > 0
      ? [`${row.errors.length} problem${row.errors.length === 1 ? '' : 's'}: ${row.errors[0]?.message ?? ''}`]
      : []),
    ...row.notes,
  ].join('; ');
}

/**
 * An aligned table with a header: content tokens, input tokens (content + chat overhead, what the editor shows),
 * the tokenizer, the file and notes; "≈" marks an approximate count.
 */
function table(rows: readonly CountRow[]): string {
  const cells = rows.map((row) => {
    const mark = row.exact ? '' : '≈';
    return [
      `${mark}${row.contentTokens.toLocaleString('en-US')}`,
      markCorrected(`${mark}${row.inputTokens.toLocaleString('en-US')}`, row.corrected),
      row.tokenizer,
      row.file,
      notesOf(row),
    ];
  });
  const widths = HEADER.map((h, c) => Math.max(h.length, ...cells.map((r) => (r[c] as string).length)));
  const line = (r: string[]) =>
    r
      .map((cell, c) => (c < 2 ? cell.padStart(widths[c] as number) : cell.padEnd(widths[c] as number)))
      .join('  ')
      .trimEnd();
  return `${[HEADER, ...cells].map(line).join('\n')}\n`;
}

/** Tab-separated, a header first, plain integers (for scripts); `exact` is true or false. */
function tsv(rows: readonly CountRow[]): string {
  const clean = (text: string) => text.replace(/[\t\r\n]+/g, ' ');
  const lines = [
    ['content', 'input', 'exact', 'tokenizer', 'file', 'notes'].join('\t'),
    ...rows.map((row) =>
      [row.contentTokens, row.inputTokens, row.exact, row.tokenizer, clean(row.file), clean(notesOf(row))].join('\t'),
    ),
  ];
  return `${lines.join('\n')}\n`;
}
