import { z } from 'zod';
import type { PromptCount } from '../count';
import { EXACT_TOKENIZER_IDS, TOKENIZER_IDS } from '../tokenize/types';
import type { AppliedCorrection } from './appliedCorrection';
import { formatCount } from '../format';
import { leastSquares } from './fit';

/**
 * The per-endpoint correction of an approximate local count (Claude, Gemini, `tekken`, unknown
 * models): billed ≈ ratio × local + offset, fitted on the prompt tokens an endpoint reported for the
 * requests benchmark runs sent (each run's usage self-check keeps its (local, billed) pairs). Exact
 * tokenizers are never corrected: their differences are the self-check's to explain (a template, a
 * system prompt on the server), not something to fit away.
 *
 * With two or more distinct prompt sizes (local counts more than SIZE_STEP apart) the fit is a
 * least-squares line (`fit: 'line'`, weighted by requests); with one size a line is not determined,
 * so it is a ratio through the origin (`fit: 'ratio'`, offset 0: Σ billed / Σ local).
 */

/** Local counts within 10 % of each other are one prompt size (cold requests differ only by a nonce). */
export const SIZE_STEP = 1.1;
/** The newest pairs kept per endpoint: enough for many prompts, small in global state. */
export const MAX_SAMPLES = 200;

const count = z.number().int().nonnegative();

export const correctionSampleSchema = z.strictObject({
  local: count,
  billed: count,
  requests: z.number().int().positive(),
});
export type CorrectionSample = z.infer<typeof correctionSampleSchema>;

export const tokenCorrectionSchema = z.strictObject({
  /** The local tokenizer whose counts it corrects (the target's). */
  tokenizer: z.string().min(1),
  /** Where the billed counts came from; never headers or keys. */
  endpoint: z.strictObject({ name: z.string().min(1), baseUrl: z.string().min(1), model: z.string().min(1) }),
  fit: z.enum(['line', 'ratio']),
  ratio: z.number().finite().positive(),
  offset: z.number().finite(),
  /** Requests the fit is made from, and how many distinct prompt sizes they had. */
  requests: z.number().int().positive(),
  sizes: z.number().int().positive(),
  samples: z.array(correctionSampleSchema).min(1).max(MAX_SAMPLES),
  /** When it was last fitted (ISO date). */
  date: z.string().min(1),
});
export type TokenCorrection = z.infer<typeof tokenCorrectionSchema>;

export type { AppliedCorrection };

export type CorrectionFit = Pick<TokenCorrection, 'fit' | 'ratio' | 'offset' | 'requests' | 'sizes'>;

/** Distinct prompt sizes among the samples: local counts grouped when within SIZE_STEP of a group's smallest. */
export function promptSizes(samples: readonly CorrectionSample[]): number {
  const locals = samples.map((s) => s.local).sort((a, b) => a - b);
  let sizes = 0;
  let start = Number.NEGATIVE_INFINITY;
  for (const local of locals)
    if (local > start * SIZE_STEP || sizes === 0) {
      sizes++;
      start = Math.max(local, 1);
    }
  return sizes;
}

/** The correction from (local, billed) pairs; undefined without a request whose local count is positive. */
export function fitCorrection(samples: readonly CorrectionSample[]): CorrectionFit | undefined {
  const usable = samples.filter((s) => s.local > 0);
  const requests = usable.reduce((n, s) => n + s.requests, 0);
  if (requests === 0) return undefined;
  const sizes = promptSizes(usable);
  if (sizes >= 2) {
    // Weighted by requests: each request is one point.
    const points = usable.flatMap((s) => Array.from({ length: s.requests }, () => ({ x: s.local, y: s.billed })));
    const line = leastSquares(points, 1);
    if (line && line[1]! > 0) return { fit: 'line', ratio: line[1]!, offset: line[0]!, requests, sizes };
  }
  const billed = usable.reduce((n, s) => n + s.billed * s.requests, 0);
  const local = usable.reduce((n, s) => n + s.local * s.requests, 0);
  if (!(billed > 0)) return undefined;
  return { fit: 'ratio', ratio: billed / local, offset: 0, requests, sizes };
}

/** Adds a run's pairs to the stored ones (same pair: requests summed), keeping the newest MAX_SAMPLES. */
export function mergeSamples(
  stored: readonly CorrectionSample[],
  added: readonly CorrectionSample[],
): CorrectionSample[] {
  const byPair = new Map<string, CorrectionSample>();
  for (const s of [...stored, ...added]) {
    const key = `${s.local}:${s.billed}`;
    const seen = byPair.get(key);
    // Re-inserted so a pair seen again counts as new.
    byPair.delete(key);
    byPair.set(key, { ...s, requests: s.requests + (seen?.requests ?? 0) });
  }
  return [...byPair.values()].slice(-MAX_SAMPLES);
}

/**
 * The stored correction updated with a run's pairs: pairs from another endpoint or another local
 * tokenizer start it afresh (they measured something else). Undefined when nothing fits.
 */
export function updateCorrection(
  stored: TokenCorrection | undefined,
  run: { tokenizer: string; endpoint: TokenCorrection['endpoint']; samples: readonly CorrectionSample[]; date: string },
): TokenCorrection | undefined {
  const same =
    stored &&
    stored.tokenizer === run.tokenizer &&
    stored.endpoint.baseUrl === run.endpoint.baseUrl &&
    stored.endpoint.model === run.endpoint.model;
  const samples = mergeSamples(same ? stored.samples : [], run.samples);
  const fit = fitCorrection(samples);
  if (!fit) return same ? stored : undefined;
  return { tokenizer: run.tokenizer, endpoint: run.endpoint, ...fit, samples, date: run.date };
}

/** billed ≈ ratio × local + offset, rounded, never negative. */
export function correctTokens(correction: Pick<TokenCorrection, 'ratio' | 'offset'>, local: number): number {
  return Math.max(0, Math.round(correction.ratio * local + correction.offset));
}

/**
 * A total as the endpoint bills it: `tokens` through the correction when it applies (same tokenizer, an
 * approximate one), with what was applied; else unchanged.
 */
export function correctTotal(
  tokenizer: string,
  tokens: number,
  correction: TokenCorrection | undefined,
): { tokens: number; corrected?: AppliedCorrection } {
  if (!correction || tokenizer !== correction.tokenizer || !isApproximateTokenizer(tokenizer)) return { tokens };
  return {
    tokens: correctTokens(correction, tokens),
    corrected: {
      endpoint: correction.endpoint.name,
      requests: correction.requests,
      sizes: correction.sizes,
      fit: correction.fit,
      ratio: correction.ratio,
      offset: correction.offset,
      localTokens: tokens,
    },
  };
}

/**
 * A count as the endpoint bills it: the total through the correction (correctTotal), content and per-message
 * counts scaled by its ratio (the offset is per request, not per message). Exact counts and counts with another
 * tokenizer are returned unchanged. Every estimate of a corrected target reads its count from here.
 */
export function correctCount(count: PromptCount, correction: TokenCorrection | undefined): PromptCount {
  const { tokens, corrected } = correctTotal(count.tokenizer, count.inputTokens, correction);
  if (!corrected) return count;
  const scale = (n: number) => Math.max(0, Math.round(n * corrected.ratio));
  return {
    ...count,
    inputTokens: tokens,
    contentTokens: scale(count.contentTokens),
    messages: count.messages.map((m) => ({ ...m, tokens: scale(m.tokens) })),
    corrected,
  };
}

/**
 * "billed ≈ 1.0312 × local + 4.1 (3 prompt sizes)", or "billed ≈ 1.1197 × local (one prompt size: a ratio through
 * the origin)".
 */
export function correctionFormula(c: Pick<AppliedCorrection, 'fit' | 'ratio' | 'offset' | 'sizes'>): string {
  if (c.fit === 'ratio') return `billed ≈ ${c.ratio.toFixed(4)} × local (one prompt size: a ratio through the origin)`;
  const sign = c.offset < 0 ? '−' : '+';
  return `billed ≈ ${c.ratio.toFixed(4)} × local ${sign} ${Math.abs(c.offset).toFixed(1)} (${c.sizes} prompt sizes)`;
}

/**
 * The footnote's detail: "corrected from 24 requests to sim: billed ≈ 1.0312 × local + 4.1 (3 prompt sizes); local
 * count 1,200".
 */
export function correctionDetail(c: AppliedCorrection): string {
  const how = `${correctionFormula(c)}; local count ${formatCount(c.localTokens)}`;
  return `corrected from ${formatCount(c.requests)} requests to ${c.endpoint}: ${how}`;
}

/** Whether counts with this tokenizer can be corrected: only approximations are. */
export function isApproximateTokenizer(id: string): boolean {
  return (TOKENIZER_IDS as readonly string[]).includes(id) && !(EXACT_TOKENIZER_IDS as readonly string[]).includes(id);
}
