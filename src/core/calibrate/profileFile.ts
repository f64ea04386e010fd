import { z } from 'zod';
import { describeIssues, ENDPOINT_KINDS, parseJsonFile, type Loaded } from '../bench/endpoints';
import { calibrationProfileSchema, type CalibrationProfile } from '../estimate';
import { tokenCorrectionSchema } from './tokenCorrection';
import { fitTtft, leastSquares, median, toProfile, type TtftFit } from './fit';
import { profileTtftMs } from './predict';

/**
 * The calibration profile as a file: what `prompt-lens calibrate --out` writes, *Export
 * Calibration…* saves and *Import Calibration…* and `estimate --calibration` read. One format, so a
 * profile measured from the CLI is the one the editor uses.
 *
 * Token basis: the fit's n is the endpoint's own prompt-token count (`usage.prompt_tokens`) when every
 * request reported one (`basis: "usage"`), else the local count (`basis: "counted"`). The local
 * count is `localTokenizer`'s, with its chat overhead; `tokenMap` turns it into the basis
 * (endpoint tokens ≈ intercept + perLocalToken × local tokens, fitted over the calibration lengths;
 * the identity when the basis is the local count), so a prompt can be predicted from its local count.
 */
const FORMAT = 'prompt-latency-lens/calibration';

const finite = z.number().finite();
const nonNegative = finite.nonnegative();

export const calibrationFileSchema = z.strictObject({
  format: z.literal(FORMAT, { error: `must be "${FORMAT}" (not a Prompt Latency Lens calibration profile)` }),
  version: z.literal(1, { error: 'must be 1 (a newer version of Prompt Latency Lens wrote this file)' }),
  /** Where it was measured; never headers or keys. */
  endpoint: z.strictObject({
    name: z.string().min(1),
    kind: z.enum(ENDPOINT_KINDS),
    baseUrl: z.string().min(1),
    model: z.string().min(1),
  }),
  /** The estimation target it calibrates (resolved id, e.g. `llama-3.1-8b@h100-sxm:bf16`), when known. */
  target: z.string().min(1).optional(),
  /** What the profile's n counts: see above. */
  tokens: z.strictObject({
    basis: z.enum(['usage', 'counted']),
    localTokenizer: z.string().min(1),
    tokenMap: z.strictObject({ intercept: finite, perLocalToken: finite.positive() }),
  }),
  /** TTFT = ttftBaseMs + msPerInputToken·n (+ msPerInputToken2·n²); TPOT the measured median; date measured. */
  profile: z.strictObject(calibrationProfileSchema.shape),
  fit: z.strictObject({
    model: z.enum(['linear', 'quadratic']),
    a: finite,
    b: finite,
    c: finite.optional(),
    /** R² at the lengths' medians (before 2026-12-03: over single requests, as r2Requests is now). */
    r2: z.number().max(1),
    /** Absent from profiles written before 2026-12-03. */
    r2Requests: z.number().max(1).optional(),
    rmseMs: nonNegative,
  }),
  /**
   * Per prompt length: its share of the prompt, both token counts, the median cold TTFT and its spread, the fit's
   * residual.
   */
  lengths: z
    .array(
      z.strictObject({
        fraction: z.number().gt(0).max(1),
        localTokens: nonNegative,
        tokens: nonNegative,
        requests: z.number().int().nonnegative(),
        failed: z.number().int().nonnegative(),
        medianTtftMs: nonNegative,
        /** The middle 80 % of its requests' TTFTs; absent from profiles written before 2026-12-03. */
        p10TtftMs: nonNegative.optional(),
        p90TtftMs: nonNegative.optional(),
        fitTtftMs: finite,
        residualMs: finite,
      }),
    )
    .min(2),
  tpotSamples: z.number().int().nonnegative(),
  /**
   * The correction of the target's approximate counts fitted on its endpoint's billed prompt tokens by benchmark
   * runs (tokenCorrection.ts), when the editor had one: *Export Calibration…* writes it, *Import Calibration…*
   * stores it, `estimate --calibration` counts through it. Optional: files without it stay valid.
   */
  correction: tokenCorrectionSchema.optional(),
  /**
   * A held-out prompt measured in the same rounds and left out of the fit (`calibrate --check`):
   * its median cold TTFT against the profile's prediction, from its reported tokens and from its
   * local count through the token map (what `estimate FILE --calibration` predicts).
   */
  check: z
    .strictObject({
      prompt: z.string(),
      localTokens: nonNegative,
      tokens: nonNegative,
      mappedTokens: nonNegative,
      requests: z.number().int().nonnegative(),
      failed: z.number().int().nonnegative(),
      medianTtftMs: nonNegative.nullable(),
      predictedTtftMs: nonNegative,
      predictedFromLocalMs: nonNegative,
    })
    .optional(),
});
export type CalibrationFile = z.infer<typeof calibrationFileSchema>;

/** One calibration length as measured (see measure.ts). */
export interface LengthRecord {
  fraction: number;
  localTokens: number;
  /** The endpoint's reported prompt tokens (median over requests) when every request of the length had one. */
  endpointTokens: number | undefined;
  /** Cold TTFT of each successful request. */
  ttftMs: number[];
  requests: number;
  failed: number;
}

export interface CalibrationInput {
  endpoint: CalibrationFile['endpoint'];
  target?: string;
  localTokenizer: string;
  lengths: readonly LengthRecord[];
  tpotMs: readonly number[];
  date: string;
  /** The held-out prompt's measurement and its name. */
  check?: LengthRecord & { prompt: string };
}

export type Built = { ok: true; file: CalibrationFile; fit: TtftFit } | { ok: false; error: string };

/**
 * The profile from a calibration's measurements: the token basis (the endpoint's count only when
 * every length has it, never a mix), the TTFT fit in that basis, the median TPOT and the per-length
 * residuals. The CLI and the editor both build their profile here.
 */
export function buildCalibrationFile(input: CalibrationInput): Built {
  const lengths = input.lengths.filter((l) => l.ttftMs.length > 0);
  // With no length left there is no fit either, so `every` being true of none decides nothing.
  const usage = lengths.every((l) => l.endpointTokens !== undefined);
  const tokensOf = (l: LengthRecord) => (usage ? l.endpointTokens! : l.localTokens);
  const fit = fitTtft(lengths.map((l) => ({ tokens: tokensOf(l), ttftMs: l.ttftMs })));
  const successes = lengths.reduce((n, l) => n + l.ttftMs.length, 0);
  if (!fit) return { ok: false, error: `too few successful requests at distinct lengths (${successes}) to fit` };
  if (!(fit.b > 0))
    return {
      ok: false,
      error: `TTFT did not grow with prompt length (slope ${fit.b.toFixed(4)} ms per token): the measurement is dominated by something else`,
    };
  if (fit.riseMs <= fit.riseNoiseMs)
    return {
      ok: false,
      error: `TTFT rose ${fit.riseMs.toFixed(1)} ms from the shortest length to the longest, within the noise of their medians (three standard errors: ${fit.riseNoiseMs.toFixed(1)} ms): measure more requests a length, or a longer prompt`,
    };
  if (input.tpotMs.length === 0)
    return { ok: false, error: 'no request produced two or more output tokens, so TPOT is unknown' };
  const tpot = median(input.tpotMs);
  const file: CalibrationFile = {
    format: FORMAT,
    version: 1,
    endpoint: input.endpoint,
    ...(input.target !== undefined ? { target: input.target } : {}),
    tokens: {
      basis: usage ? 'usage' : 'counted',
      localTokenizer: input.localTokenizer,
      tokenMap: usage ? tokenMap(lengths) : { intercept: 0, perLocalToken: 1 },
    },
    profile: toProfile(fit, tpot, input.date),
    fit: {
      model: fit.model,
      a: fit.a,
      b: fit.b,
      ...(fit.c !== undefined ? { c: fit.c } : {}),
      r2: fit.r2,
      r2Requests: fit.r2Requests,
      rmseMs: fit.rmseMs,
    },
    lengths: lengths.map((l, i) => ({
      fraction: l.fraction,
      localTokens: l.localTokens,
      tokens: tokensOf(l),
      requests: l.requests,
      failed: l.failed,
      medianTtftMs: fit.residuals[i]!.medianMs,
      p10TtftMs: fit.residuals[i]!.p10Ms,
      p90TtftMs: fit.residuals[i]!.p90Ms,
      fitTtftMs: fit.residuals[i]!.fitMs,
      residualMs: fit.residuals[i]!.residualMs,
    })),
    tpotSamples: input.tpotMs.length,
  };
  if (input.check) file.check = checkRow(file, input.check);
  return { ok: true, file, fit };
}

function checkRow(
  file: CalibrationFile,
  check: LengthRecord & { prompt: string },
): NonNullable<CalibrationFile['check']> {
  const mappedTokens = basisTokens(file, check.localTokens);
  const tokens = file.tokens.basis === 'usage' ? (check.endpointTokens ?? mappedTokens) : check.localTokens;
  return {
    prompt: check.prompt,
    localTokens: check.localTokens,
    tokens,
    mappedTokens,
    requests: check.requests,
    failed: check.failed,
    medianTtftMs: check.ttftMs.length > 0 ? median(check.ttftMs) : null,
    predictedTtftMs: profileTtftMs(file.profile, tokens),
    predictedFromLocalMs: profileTtftMs(file.profile, mappedTokens),
  };
}

/** Endpoint tokens ≈ intercept + perLocalToken × local tokens, least squares over the lengths. */
function tokenMap(lengths: readonly LengthRecord[]): CalibrationFile['tokens']['tokenMap'] {
  const points = lengths.map((l) => ({ x: l.localTokens, y: l.endpointTokens! }));
  const line = new Set(points.map((p) => p.x)).size >= 2 ? leastSquares(points, 1) : undefined;
  if (line && line[1]! > 0) return { intercept: line[0]!, perLocalToken: line[1]! };
  // One distinct local length: a plain ratio.
  const sum = (f: (p: { x: number; y: number }) => number) => points.reduce((s, p) => s + f(p), 0);
  return {
    intercept: 0,
    perLocalToken:
      sum((p) => p.y) /
      Math.max(
        1,
        sum((p) => p.x),
      ),
  };
}

/**
 * The endpoint's correction of local counts, in words: "corrected from N requests (billed ≈ a + b × local)", N being
 * the successful requests whose reported prompt tokens the map was fitted on; undefined when the profile counts
 * locally (the endpoint reported no usage).
 */
export function tokenCorrection(file: Pick<CalibrationFile, 'tokens' | 'lengths'>): string | undefined {
  if (file.tokens.basis !== 'usage') return undefined;
  const requests = file.lengths.reduce((n, l) => n + l.requests - l.failed, 0);
  const { intercept, perLocalToken } = file.tokens.tokenMap;
  const sign = intercept < 0 ? '−' : '+';
  return `corrected from ${requests} requests (billed ≈ ${perLocalToken.toFixed(4)} × local ${sign} ${Math.abs(intercept).toFixed(1)})`;
}

/** A profile's tokens for a prompt counted locally with its `localTokenizer`. */
export function basisTokens(file: Pick<CalibrationFile, 'tokens'>, localTokens: number): number {
  const { intercept, perLocalToken } = file.tokens.tokenMap;
  return Math.max(0, Math.round(intercept + perLocalToken * localTokens));
}

/**
 * The profile in local tokens (what the editor's estimates count with): TTFT(α + β·n) expanded, so
 * a + b·(α + βn) + c·(α + βn)² = (a + bα + cα²) + (bβ + 2cαβ)·n + cβ²·n².
 */
export function localProfile(file: Pick<CalibrationFile, 'tokens' | 'profile'>): CalibrationProfile {
  const { intercept: alpha, perLocalToken: beta } = file.tokens.tokenMap;
  const p = file.profile;
  const c = p.msPerInputToken2 ?? 0;
  return {
    ttftBaseMs: p.ttftBaseMs + p.msPerInputToken * alpha + c * alpha * alpha,
    msPerInputToken: Math.max(0, p.msPerInputToken * beta + 2 * c * alpha * beta),
    ...(p.msPerInputToken2 !== undefined ? { msPerInputToken2: c * beta * beta } : {}),
    tpotMs: p.tpotMs,
    date: p.date,
  };
}

/** Parses a profile file's text; the error names the file and the bad field. */
export function parseCalibrationFile(text: string, source: string): Loaded<CalibrationFile> {
  const read = parseJsonFile(text, source);
  if (!read.ok) return read;
  const parsed = calibrationFileSchema.safeParse(read.value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: `${source}: not a calibration profile: ${describeIssues(parsed.error)}` };
}

export function calibrationFileText(file: CalibrationFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}
