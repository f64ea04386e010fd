import { parseArgs } from 'node:util';
import { promptTokenCounter, type PromptTokens } from '../../core/count';
import { formatCountOf, formatMs, formatUsd } from '../../core/format';
import { scenarioLabel, scenarioOf, servingLabel } from '../../core/estimate/scenarios';
import { parsePrompt } from '../../core/prompt/parse';
import {
  estimate,
  parseGpuCount,
  parsePrecision,
  parseTargetId,
  resolveTarget,
  scopeSchema,
  engineVersionSchema,
  sizeCpu,
  targetTokenizerId,
  targetModelId,
  DEFAULT_ENGINE,
  type Assumptions,
  type Estimate,
  type Range,
  type TargetSpec,
  type Tables,
} from '../../core/estimate';
import { EXIT, UsageError, type CliIo } from '../io';
import { MAX_FILE_OPTION, MAX_FILE_USAGE, maxFileBytesFlag, readWholePrompt } from '../promptInput';
import { loadCliTables } from '../tables';
import { estimateCalibrated } from './estimateCalibrated';
import { intFlag, numberFlag, optionalFlag } from './flags';
import { PRICING_OPTIONS, PRICING_USAGE, pricingFlags } from './pricingFlags';

export const ESTIMATE_USAGE =
  'prompt-lens estimate (FILE | --tokens N) (--target ID | --model ID --hardware ID [--gpus N] [--precision P] [--engine ID] [--tp N] [--pp M] | --provider ID --model ID | --calibration PROFILE.json) [--scope engine|http] [--engine-version V] [--cpu-cores N] [--cpu-gflops G] [--cpu-bandwidth GBS] [--cached N] [--output-tokens M] [--concurrency C] ' +
  PRICING_USAGE +
  ' [--table FILE] [--json] ' +
  MAX_FILE_USAGE;

const OPTIONS = {
  tokens: { type: 'string' },
  target: { type: 'string' },
  model: { type: 'string' },
  hardware: { type: 'string' },
  gpus: { type: 'string' },
  precision: { type: 'string' },
  engine: { type: 'string' },
  'engine-version': { type: 'string' },
  scope: { type: 'string' },
  tp: { type: 'string' },
  pp: { type: 'string' },
  'cpu-cores': { type: 'string' },
  'cpu-gflops': { type: 'string' },
  'cpu-bandwidth': { type: 'string' },
  provider: { type: 'string' },
  cached: { type: 'string' },
  'output-tokens': { type: 'string' },
  concurrency: { type: 'string' },
  table: { type: 'string', multiple: true },
  calibration: { type: 'string' },
  json: { type: 'boolean', default: false },
  ...PRICING_OPTIONS,
  ...MAX_FILE_OPTION,
} as const;

export async function estimateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 1) throw new UsageError(`one FILE at most; usage: ${ESTIMATE_USAGE}`);
  const file = positionals[0];
  const tokensFlag = optionalFlag('tokens', values.tokens, intFlag(1, 100_000_000));
  if ((file === undefined) === (tokensFlag === undefined))
    throw new UsageError(`give either FILE or --tokens N; usage: ${ESTIMATE_USAGE}`);
  const scope = optionalFlag('scope', values.scope, scopeSchema);
  const engineVersion = optionalFlag('engine-version', values['engine-version'], engineVersionSchema);
  const cached = optionalFlag('cached', values.cached, intFlag(0, 100_000_000)) ?? 0;
  // 0 output tokens is a prefill-only estimate.
  const outputTokens = optionalFlag('output-tokens', values['output-tokens'], intFlag(0, 1_000_000));
  const concurrency = optionalFlag('concurrency', values.concurrency, intFlag(1, 4096));
  const pricing = pricingFlags(values);
  if (values.calibration !== undefined) {
    const calibrated = await estimateCalibrated(
      {
        profilePath: values.calibration,
        ...(file !== undefined ? { file } : { tokens: tokensFlag! }),
        ...(values.model !== undefined || values.target !== undefined ? { target: targetSpec(values) } : {}),
        tables: () => loadCliTables(values.table ?? [], io),
        maxFileBytes: maxFileBytesFlag(values['max-file-bytes']),
        cached,
        pricing,
        ...(outputTokens !== undefined ? { outputTokens } : {}),
        ...(concurrency !== undefined ? { concurrency } : {}),
      },
      io,
    );
    if (calibrated.kind === 'profile')
      io.out(values.json ? `${JSON.stringify(calibrated.json, null, 2)}\n` : calibrated.text);
    else
      io.out(
        values.json
          ? `${JSON.stringify({ ...toJson(calibrated.estimate, calibrated.tokens), calibration: calibrated.calibration }, null, 2)}\n`
          : humanReport(calibrated.estimate, calibrated.tokens),
      );
    return EXIT.ok;
  }
  const spec = targetSpec(values);

  const tables = sizedCpu(await loadCliTables(values.table ?? [], io), spec, values);
  const target = resolveTarget(spec, tables, {
    ...(scope ? { scope } : {}),
    ...(engineVersion !== undefined ? { engineVersion } : {}),
  });

  let tokens: PromptTokens = { tokens: tokensFlag ?? 0, tokenizer: 'none (--tokens)', exact: true };
  if (file !== undefined) {
    const text = await readWholePrompt(io, file, maxFileBytesFlag(values['max-file-bytes']));
    tokens = promptTokenCounter(parsePrompt(file, text))(targetTokenizerId(target), targetModelId(target));
  }
  if (cached > tokens.tokens)
    throw new UsageError(`--cached ${cached} exceeds the prompt's ${tokens.tokens} input tokens`);

  const result = estimate(target, {
    inputTokens: tokens.tokens,
    cachedTokens: cached,
    ...(outputTokens !== undefined ? { outputTokens } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    cacheTtl: pricing.cacheTtl,
    at: pricing.at,
  });
  if (file !== undefined && !tokens.exact)
    result.notes.push(
      ...(
        tokens.approximations ?? [
          `${targetTokenizerId(target)}'s tokenizer is approximated by ${tokens.tokenizer} (see prompt-lens tokenizers)`,
        ]
      ).map((why) => `token count is approximate: ${why}`),
    );
  io.out(
    values.json
      ? `${JSON.stringify({ ...toJson(result, tokens), serving: servingLabel(target) }, null, 2)}\n`
      : humanReport(result, tokens, servingLabel(target)),
  );
  // A request that would fail (retired model, prompt over the window) is an error, not a note:
  // "Error:" lines, `errors` in --json, exit 1.
  return result.errors.length > 0 ? EXIT.findings : EXIT.ok;
}

interface TargetFlags {
  target?: string;
  model?: string;
  hardware?: string;
  gpus?: string;
  precision?: string;
  engine?: string;
  tp?: string;
  pp?: string;
  provider?: string;
}

const SELF_HOSTED_FLAGS = ['hardware', 'gpus', 'precision', 'engine', 'tp', 'pp'] as const;

function targetSpec(values: TargetFlags): TargetSpec {
  if (values.target !== undefined) {
    const others = (['model', 'provider', ...SELF_HOSTED_FLAGS] as const).filter((f) => values[f] !== undefined);
    if (others.length > 0) throw new UsageError(`--target names the whole target; drop --${others.join(', --')}`);
    return parseTargetId(values.target);
  }
  if (!values.model) throw new UsageError(`give --target ID or --model ID; usage: ${ESTIMATE_USAGE}`);
  const model = values.model;
  if (values.provider !== undefined) {
    const mixed = SELF_HOSTED_FLAGS.filter((f) => values[f] !== undefined);
    if (mixed.length > 0) throw new UsageError(`--provider cannot be combined with --${mixed.join(', --')}`);
    return { kind: 'provider', id: `${values.provider}/${model}` };
  }
  if (values.hardware === undefined)
    throw new UsageError(`give --hardware ID (self-hosted) or --provider ID; usage: ${ESTIMATE_USAGE}`);
  const tp = values.tp === undefined ? undefined : parseGpuCount(values.tp, '--tp');
  const pp = values.pp === undefined ? undefined : parseGpuCount(values.pp, '--pp');
  return {
    kind: 'self-hosted',
    model,
    hardware: values.hardware,
    gpus: values.gpus === undefined ? (tp ?? 1) * (pp ?? 1) : parseGpuCount(values.gpus),
    ...(values.precision !== undefined ? { precision: parsePrecision(values.precision) } : {}),
    ...(values.engine !== undefined ? { engine: values.engine } : {}),
    ...(tp !== undefined ? { tp } : {}),
    ...(pp !== undefined ? { pp } : {}),
  };
}

/** --cpu-cores/--cpu-gflops/--cpu-bandwidth resize the CPU row the target runs on, for this run only. */
function sizedCpu(
  tables: Tables,
  spec: TargetSpec,
  values: { 'cpu-cores'?: string; 'cpu-gflops'?: string; 'cpu-bandwidth'?: string },
): Tables {
  const size = {
    cores: optionalFlag('cpu-cores', values['cpu-cores'], intFlag(1, 4096)),
    gflopsPerCore: optionalFlag('cpu-gflops', values['cpu-gflops'], numberFlag(0, 1e6)),
    bandwidthGBs: optionalFlag('cpu-bandwidth', values['cpu-bandwidth'], numberFlag(0, 1e6)),
  };
  const given = Object.fromEntries(Object.entries(size).filter(([, v]) => v !== undefined));
  if (Object.keys(given).length === 0) return tables;
  const row = spec.kind === 'self-hosted' ? tables.hardware.get(spec.hardware) : undefined;
  if (!row) throw new UsageError('--cpu-* flags size the CPU row of a self-hosted target (e.g. --hardware cpu)');
  const sized = sizeCpu(row, given);
  if (sized.refused) throw new UsageError(`--cpu-* flags: ${sized.refused}`);
  return { ...tables, hardware: new Map(tables.hardware).set(row.id, sized.row) };
}

/** The `--json` document (the MCP server's estimate tool answers the same). */
export function toJson(e: Estimate, tokens: { tokenizer: string; exact: boolean }) {
  return {
    target: e.target,
    kind: e.kind,
    ...(e.assumptions ? { assumptions: e.assumptions } : {}),
    tokenizer: tokens.tokenizer,
    tokensExact: tokens.exact,
    inputTokens: e.inputTokens,
    cachedTokens: e.cachedTokens,
    outputTokens: e.outputTokens,
    concurrency: e.concurrency,
    scenario: scenarioLabel(scenarioOf(e)),
    prefillFlops: e.prefillFlops?.total ?? null,
    prefillFlopsSplit: e.prefillFlops ? { linear: e.prefillFlops.linear, attention: e.prefillFlops.attention } : null,
    coldPrefillFlops: e.coldPrefillFlops?.total ?? null,
    bound: e.bound,
    ttftMs: e.ttftMs,
    coldTtftMs: e.coldTtftMs,
    ttftAtConcurrencyMs: e.concurrencyTtftMs,
    tpotMs: e.tpotMs,
    e2eMs: e.e2eMs,
    costUsd: e.costUsd,
    costPer1kCallsUsd: e.costPer1kCallsUsd,
    cost: e.providerCost ?? e.selfHostedCost ?? null,
    kvCache: e.memory ?? null,
    prefill: e.prefill ?? null,
    decode: e.decode ?? null,
    calibrated: e.calibrated,
    pricing: e.providerCost?.basis ?? [],
    errors: e.errors,
    notes: e.notes,
  };
}

const range = (r: Range) => `${formatMs(r.p50)} (${formatMs(r.low)}–${formatMs(r.high)})`;
const num = (v: number) => v.toLocaleString('en-US');
function flops(v: number): string {
  const units: [number, string][] = [
    [1e15, 'PFLOP'],
    [1e12, 'TFLOP'],
    [1e9, 'GFLOP'],
    [1e6, 'MFLOP'],
  ];
  const [scale, unit] = units.find(([s]) => v >= s) ?? [1, 'FLOP'];
  return `${(v / scale).toFixed(2)} ${unit}`;
}

/** The text report (the MCP server's estimate tool answers the same). */
export function humanReport(e: Estimate, tokens: { tokenizer: string; exact: boolean }, serving?: string): string {
  const lines = [
    `${e.target}: ${num(e.inputTokens)} input tokens (${tokens.tokenizer}${tokens.exact ? '' : ', approximate'}), ${num(e.cachedTokens)} cached, ${num(e.outputTokens)} output, concurrency ${e.concurrency}`,
    // The scenario and serving stack the figures belong to, as the editor's hover and status bar print them.
    `Scenario: ${scenarioLabel(scenarioOf(e))}, ${formatCountOf(e.outputTokens, 'output token')}${serving ? ` · serving: ${serving}` : ''}`,
  ];
  if (e.assumptions) {
    const a = e.assumptions;
    lines.push(
      `Assumes: ${a.label}; engine ${a.engine.name} ${a.engine.versions}${a.engine.choice === 'named' ? '' : a.engine.choice === 'default' ? ` (default ${DEFAULT_ENGINE}; --engine to change)` : ' (vendor fallback)'}`,
      `Engine release: ${releaseLine(a.release)}`,
      `Range: ${a.range}`,
    );
  }
  if (e.prefillFlops)
    lines.push(
      `Prefill FLOPs: ${flops(e.prefillFlops.total)} (linear ${flops(e.prefillFlops.linear)}, attention ${flops(e.prefillFlops.attention)})${e.bound ? `, ${e.bound}-bound` : ''}`,
    );
  lines.push(
    `TTFT:  ${e.cachedTokens > 0 ? `warm ${range(e.ttftMs)}   cold ${range(e.coldTtftMs)}` : range(e.ttftMs)}`,
  );
  if (e.concurrency > 1)
    lines.push(
      `TTFT at concurrency ${e.concurrency}: p50 ${formatMs(e.concurrencyTtftMs.p50)}, p99 ${formatMs(e.concurrencyTtftMs.p99)}`,
    );
  lines.push(`TPOT:  ${range(e.tpotMs)}`, `E2E:   ${range(e.e2eMs)}`);
  if (e.memory)
    lines.push(
      `KV cache: ${num(e.memory.kvBytesPerToken)} bytes/token, ${(e.memory.promptKvBytes / 1e9).toFixed(2)} GB for this call; room for ${num(e.memory.kvCapacityTokens)} tokens`,
    );
  if (e.providerCost) {
    const c = e.providerCost;
    lines.push(
      `Cost:  cold ${formatUsd(c.cold.totalUsd)} (${c.cold.rule}), warm ${formatUsd(c.warm.totalUsd)} (${c.warm.rule}); ${formatUsd(c.per1kCallsUsd)} per 1,000 calls`,
      ...c.basis.map((b) => `       ${b}`),
    );
  } else if (e.selfHostedCost) {
    lines.push(
      `Cost:  ${formatUsd(e.selfHostedCost.perCallUsd)} per call, ${formatUsd(e.selfHostedCost.per1kCallsUsd)} per 1,000 calls (${e.selfHostedCost.basis})`,
    );
  }
  for (const error of e.errors) lines.push(`Error: ${error}`);
  for (const note of e.notes) lines.push(`Note:  ${note}`);
  return `${lines.join('\n')}\n`;
}

/** "llama.cpp current (b2000-b7000) (the default; …)", or the range the version given falls in and its factor. */
function releaseLine(r: Assumptions['release']): string {
  if (r.given === undefined) return `${r.label} (the default; --engine-version or +ENGINE~VERSION to change)`;
  // The evidence for the factor is in the notes below.
  return `${r.label} (version ${r.given}); prefill ×${r.prefillFactor}`;
}
