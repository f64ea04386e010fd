import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { buildReport, hasFindingsAtOrAbove } from '../../core/findings/report';
import { formatInstructions, formatReport } from '../../core/findings/reportText';
import { parseFindingSettings } from '../../core/findings/settings';
import { DEFAULT_TARGET_IDS, parseTargetId, resolveTarget, retiredMessage, targetModelId } from '../../core/estimate';
import { findingTarget } from '../../core/findings/targets';
import { PROFILES } from '../../core/compare/profiles';
import { loadCliTables } from '../tables';
import { flag, intFlag, numberFlag, optionalFlag } from './flags';
import { FINDING_CODES } from '../../core/findings/types';
import { SWITCHABLE_FORMATS, type SwitchableFormat } from '../../core/prompt/formats';
import { DEFAULT_INCLUDE_GLOBS, includeGlobSchema, promptFileMatcher } from '../../core/promptFiles';
import { getTokenizer } from '../../core/tokenize/registry';
import { EXIT, UsageError, type CliIo } from '../io';
import { MAX_FILE_OPTION, MAX_FILE_USAGE, maxFileBytesFlag } from '../promptInput';
import { readPromptTree } from '../promptTree';

export const REPORT_USAGE =
  'prompt-lens report [DIR] [--target ID] [--table FILE] [--json] [--fail-on warning|error] [--instructions] ' +
  '[--include GLOB]... [--disable CODE]... [--disable-format FORMAT]... [--rag-max-tokens N] [--rag-max-share F] ' +
  '[--rag-share-min-tokens N] [--min-shared-tokens N] [--dynamic-pattern REGEX]... [--dynamic-hints] ' +
  '[--instructions-max-tokens N] [--instructions-location DIR]... [--concurrency C] [--output-tokens M] ' +
  MAX_FILE_USAGE;

const failOn = z.enum(['warning', 'error']);
const positiveInt = intFlag(1, 100_000_000);
const countFlag = intFlag(0, 100_000_000);
const share = numberFlag(0, 1);

export async function reportCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      target: { type: 'string', default: DEFAULT_TARGET_IDS[0] },
      table: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      'fail-on': { type: 'string' },
      include: { type: 'string', multiple: true },
      disable: { type: 'string', multiple: true },
      'rag-max-tokens': { type: 'string' },
      'rag-max-share': { type: 'string' },
      'min-shared-tokens': { type: 'string' },
      'rag-share-min-tokens': { type: 'string' },
      'disable-format': { type: 'string', multiple: true },
      'dynamic-pattern': { type: 'string', multiple: true },
      'dynamic-hints': { type: 'boolean', default: false },
      instructions: { type: 'boolean', default: false },
      'instructions-max-tokens': { type: 'string' },
      'instructions-location': { type: 'string', multiple: true },
      concurrency: { type: 'string' },
      'output-tokens': { type: 'string' },
      ...MAX_FILE_OPTION,
    },
  });
  if (positionals.length > 1) throw new UsageError(`one directory at most; usage: ${REPORT_USAGE}`);
  const resolved = resolveTarget(parseTargetId(values.target), await loadCliTables(values.table ?? [], io));
  const retired = resolved.kind === 'provider' ? retiredMessage(resolved.provider) : undefined;
  if (retired) throw new UsageError(`--target: ${retired}`);
  // The editor's default workload (the interactive profile), so the CLI report says what the editor's does.
  const target = findingTarget(resolved, {
    concurrency: optionalFlag('concurrency', values.concurrency, intFlag(1, 4096)) ?? PROFILES.interactive.concurrency,
    outputTokens:
      optionalFlag('output-tokens', values['output-tokens'], intFlag(1, 1_000_000)) ??
      PROFILES.interactive.outputTokens,
  });
  const level = optionalFlag('fail-on', values['fail-on'], failOn);
  const disabled = (values.disable ?? []).flatMap((d) => d.split(','));
  const unknown = disabled.filter((code) => !(FINDING_CODES as readonly string[]).includes(code));
  if (unknown.length > 0)
    throw new UsageError(`--disable ${unknown.join(',')}: unknown finding code; codes: ${FINDING_CODES.join(', ')}`);
  const formats = (values['disable-format'] ?? []).flatMap((d) => d.split(','));
  const unknownFormats = formats.filter((f) => !(SWITCHABLE_FORMATS as readonly string[]).includes(f));
  if (unknownFormats.length > 0)
    throw new UsageError(
      `--disable-format ${unknownFormats.join(',')}: unknown format; formats: ${SWITCHABLE_FORMATS.join(', ')}`,
    );
  const { settings, problems } = parseFindingSettings({
    disabled,
    rag: {
      maxTokens: optionalFlag('rag-max-tokens', values['rag-max-tokens'], positiveInt),
      maxShare: optionalFlag('rag-max-share', values['rag-max-share'], share),
      shareMinTokens: optionalFlag('rag-share-min-tokens', values['rag-share-min-tokens'], countFlag),
    },
    cache: {
      minSharedTokens: optionalFlag('min-shared-tokens', values['min-shared-tokens'], positiveInt),
      dynamicPatterns: values['dynamic-pattern'] ?? [],
      dynamicHints: values['dynamic-hints'],
    },
    instructions: {
      maxTokens: optionalFlag('instructions-max-tokens', values['instructions-max-tokens'], positiveInt),
    },
  });
  if (problems.length > 0) throw new UsageError(problems.join('; '));

  const root = resolve(io.cwd, positionals[0] ?? '.');
  const disabledFormats = formats as SwitchableFormat[];
  const isPrompt = promptFileMatcher(
    (values.include ?? DEFAULT_INCLUDE_GLOBS).map((glob) => flag('include', glob, includeGlobSchema)),
    disabledFormats,
  );
  const maxBytes = maxFileBytesFlag(values['max-file-bytes']);
  let tree: Awaited<ReturnType<typeof readPromptTree>>;
  try {
    tree = await readPromptTree(io, root, isPrompt, maxBytes, (message) => io.err(`prompt-lens: ${message}\n`));
  } catch {
    throw new UsageError(`cannot list ${positionals[0] ?? '.'}: not a readable directory`);
  }
  const { inputs } = tree;

  const report = buildReport(
    inputs,
    {
      tokenizer: getTokenizer(target.tokenizer),
      chatModel: targetModelId(resolved),
      costModel: target.model,
      settings,
      ...(values['instructions-location'] ? { instructionLocations: values['instructions-location'] } : {}),
    },
    { disabledFormats },
  );
  if (values.instructions)
    io.out(
      values.json
        ? `${JSON.stringify({ schemaVersion: report.schemaVersion, target: report.target, instructions: report.instructions }, null, 2)}\n`
        : `${formatInstructions(report.instructions).join('\n')}\n`,
    );
  else io.out(values.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report));
  if (level !== undefined && hasFindingsAtOrAbove(report, level)) return EXIT.findings;
  return tree.complete ? EXIT.ok : EXIT.usage;
}
