import { correctionDetail, correctTotal } from '../../core/calibrate/tokenCorrection';
import { calibratedLatency, type CalibratedLatency } from '../../core/calibrate/predict';
import { r2Text } from '../../core/calibrate/fit';
import {
  basisTokens,
  parseCalibrationFile,
  tokenCorrection,
  type CalibrationFile,
} from '../../core/calibrate/profileFile';
import {
  DEFAULT_OUTPUT_TOKENS,
  estimate,
  namesTarget,
  parseTargetId,
  resolveTarget,
  targetModelId,
  type CacheTtl,
  type Estimate,
  type TargetSpec,
  type Tables,
} from '../../core/estimate';
import { promptTokenCounter } from '../../core/count';
import { formatCount, formatMs } from '../../core/format';
import { parsePrompt } from '../../core/prompt/parse';
import { readInput, UsageError, type CliIo } from '../io';
import { readWholePrompt } from '../promptInput';

export interface CalibratedRequest {
  profilePath: string;
  /** A prompt file, counted with the profile's local tokenizer… */
  file?: string;
  /** …or tokens in the profile's basis (the endpoint's own count when it reported usage). */
  tokens?: number;
  /** A target from the command line; else the profile's own, if it names one. */
  target?: TargetSpec;
  tables: () => Promise<Tables>;
  maxFileBytes: number;
  cached: number;
  pricing: { cacheTtl: CacheTtl; at: Date };
  outputTokens?: number;
  concurrency?: number;
}

/** How the input tokens were found: the basis count, and the local count it came from. */
interface InputTokens {
  tokens: number;
  localTokens?: number;
  label: string;
  exact: boolean;
}

export type CalibratedOutcome =
  | { kind: 'profile'; text: string; json: unknown }
  | {
      kind: 'target';
      estimate: Estimate;
      tokens: { tokens: number; tokenizer: string; exact: boolean };
      calibration: unknown;
    };

/**
 * `estimate --calibration PROFILE.json`: the measured profile replaces the modelled latency. With a
 * target (the profile's or the command line's) the result is the estimation engine's, costs and
 * queueing included; without one it is the profile's own prediction for one request.
 */
export async function estimateCalibrated(request: CalibratedRequest, io: CliIo): Promise<CalibratedOutcome> {
  const profile = await readCalibrationProfile(request.profilePath, io);
  const spec = request.target ?? (profile.target !== undefined ? parseTargetId(profile.target) : undefined);
  const tables = spec ? await request.tables() : undefined;
  const resolved = spec && tables ? resolveTarget(spec, tables) : undefined;
  // Counted as the editor counts for the target (its model's chat template), else as the endpoint's model.
  const input = await inputTokens(profile, request, io, resolved ? targetModelId(resolved) : profile.endpoint.model);
  if (request.cached > input.tokens)
    throw new UsageError(`--cached ${request.cached} exceeds the prompt's ${input.tokens} input tokens`);
  const notes = calibrationNotes(profile, input);
  const calibration = {
    profile: request.profilePath,
    endpoint: profile.endpoint.name,
    measured: profile.profile.date,
    basis: profile.tokens.basis,
    localTokenizer: profile.tokens.localTokenizer,
    localTokens: input.localTokens ?? null,
    tokens: input.tokens,
    fit: profile.fit,
  };
  if (!resolved || !tables) {
    if (request.concurrency !== undefined && request.concurrency > 1)
      throw new UsageError(
        `${request.profilePath} names no target, so nothing models queueing at --concurrency ${request.concurrency}: calibrate with --target, or give --model with --hardware or --provider`,
      );
    const latency = calibratedLatency(profile.profile, {
      inputTokens: input.tokens,
      cachedTokens: request.cached,
      outputTokens: request.outputTokens ?? DEFAULT_OUTPUT_TOKENS,
    });
    return {
      kind: 'profile',
      text: profileReport(profile, input, latency, notes),
      json: { target: null, ...latency, calibrated: true, calibration, notes },
    };
  }
  const target = resolved;
  if (profile.target !== undefined && !namesTarget(profile.target, target, tables))
    throw new UsageError(
      `${request.profilePath} calibrates ${profile.target}, not ${target.id}; leave out the target flags to use the profile's`,
    );
  const result = estimate(target, {
    inputTokens: input.tokens,
    cachedTokens: request.cached,
    calibration: profile.profile,
    cacheTtl: request.pricing.cacheTtl,
    at: request.pricing.at,
    ...(request.outputTokens !== undefined ? { outputTokens: request.outputTokens } : {}),
    ...(request.concurrency !== undefined ? { concurrency: request.concurrency } : {}),
  });
  result.notes.push(...notes);
  return {
    kind: 'target',
    estimate: result,
    tokens: { tokens: input.tokens, tokenizer: input.label, exact: input.exact },
    calibration,
  };
}

/** A calibration profile file (`calibrate --out`, *Export Calibration…*), validated; a usage error if it is not one. */
export async function readCalibrationProfile(path: string, io: CliIo): Promise<CalibrationFile> {
  const { text } = await readInput(io, path, 'calibration profile ');
  const loaded = parseCalibrationFile(text, path);
  if (!loaded.ok) throw new UsageError(loaded.error);
  return loaded.value;
}

async function inputTokens(
  profile: CalibrationFile,
  request: CalibratedRequest,
  io: CliIo,
  model: string,
): Promise<InputTokens> {
  const endpointTokens = profile.tokens.basis === 'usage';
  if (request.file === undefined)
    return {
      tokens: request.tokens ?? 0,
      label: endpointTokens ? 'endpoint tokens (--tokens)' : `${profile.tokens.localTokenizer} tokens (--tokens)`,
      exact: true,
    };
  const text = await readWholePrompt(io, request.file, request.maxFileBytes);
  const local = promptTokenCounter(parsePrompt(request.file, text))(profile.tokens.localTokenizer, model);
  // A benchmark-fitted correction of an approximate count (exported from the editor) comes first.
  const corrected = endpointTokens ? correctTotal(local.tokenizer, local.tokens, profile.correction) : undefined;
  if (corrected?.corrected)
    return {
      tokens: corrected.tokens,
      localTokens: local.tokens,
      label: `endpoint tokens: ${formatCount(local.tokens)} ${local.tokenizer} tokens ${correctionDetail(corrected.corrected)}`,
      exact: false,
    };
  if (!endpointTokens)
    return { tokens: local.tokens, localTokens: local.tokens, label: local.tokenizer, exact: local.exact };
  return {
    tokens: basisTokens(profile, local.tokens),
    localTokens: local.tokens,
    label:
      `endpoint tokens: ${formatCount(local.tokens)} ${local.tokenizer} tokens ${tokenCorrection(profile) ?? ''}`.trimEnd(),
    exact: false,
  };
}

function calibrationNotes(profile: CalibrationFile, input: InputTokens): string[] {
  const notes = [
    `calibrated on ${profile.endpoint.name} (${profile.endpoint.model}) on ${profile.profile.date}: ${profile.fit.model} fit, ${r2Text(profile.fit)}, n = ${profile.tokens.basis === 'usage' ? "the endpoint's reported prompt tokens" : `local ${profile.tokens.localTokenizer} tokens`}`,
  ];
  const longest = Math.max(...profile.lengths.map((l) => l.tokens));
  if (input.tokens > longest)
    notes.push(
      `${formatCount(input.tokens)} tokens is beyond the longest calibrated length (${formatCount(longest)}): extrapolated`,
    );
  return notes;
}

function profileReport(profile: CalibrationFile, input: InputTokens, l: CalibratedLatency, notes: string[]): string {
  const lines = [
    `${profile.endpoint.name} (calibrated profile, no target): ${formatCount(l.inputTokens)} input tokens (${input.label}), ${formatCount(l.cachedTokens)} cached, ${formatCount(l.outputTokens)} output`,
    `TTFT:  ${l.cachedTokens > 0 ? `warm ${formatMs(l.ttftMs)}   cold ${formatMs(l.coldTtftMs)}` : formatMs(l.coldTtftMs)}`,
    `TPOT:  ${formatMs(l.tpotMs)}`,
    `E2E:   ${formatMs(l.e2eMs)}`,
    ...notes.map((n) => `Note:  ${n}`),
    'Note:  no target, so no cost and no queueing: calibrate with --target, or give --model with --hardware or --provider',
  ];
  return `${lines.join('\n')}\n`;
}
