import { english, type Translate } from './l10n';

/**
 * The one home of number formatting (ms, $, tokens) for every surface: hover, status bar, CodeLens, finding
 * messages, reports, Compare, the results view and the CLI (en-US, stable across locales).
 */

/** a − b in dollars, or null when either side has no price (hardware used for latency only). */
export function usdDifference(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a - b;
}

/** usd × factor, keeping "no price" as null. */
export function scaleUsd(usd: number | null, factor: number): number | null {
  return usd === null ? null : usd * factor;
}

/**
 * "1,234,567": `toLocaleString('en-US')` of the rounded number, without ICU for the integers it can be — its first
 * call in a process loads ICU's number data (30+ ms on the editor's host thread, on the first hover or status bar).
 */
export function formatCount(n: number): string {
  const rounded = Math.round(n);
  if (!Number.isSafeInteger(rounded) || Object.is(rounded, -0)) return rounded.toLocaleString('en-US');
  return String(rounded).replace(THOUSANDS, ',');
}

/** Before each group of three digits that ends the integer. */
const THOUSANDS = /\B(?=(?:\d{3})+$)/g;

/** "1 warning", "2 warnings", "1,024 tokens": a count with its noun, singular only for exactly one. */
export function formatCountOf(n: number, noun: string, plural = `${noun}s`): string {
  return `${formatCount(n)} ${Math.round(n) === 1 ? noun : plural}`;
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** "5.5 ms", "420 ms", "1.9 s", "12 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)} s`;
  return `${ms >= 10 ? Math.round(ms) : ms.toFixed(1)} ms`;
}

/**
 * "$0.037", "$0.00012", "$12.40", "$1,234": two significant digits below a dollar, cents above; "no price" for
 * null.
 */
export function formatUsd(usd: number | null): string {
  if (usd === null) return 'no price';
  if (usd === 0) return '$0';
  if (usd >= 100) return `$${formatCount(usd)}`;
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  const digits = Math.max(2, 1 - Math.floor(Math.log10(usd)));
  return `$${usd.toFixed(Math.min(digits, 6))}`;
}

/** "12,480", with "≈" when the tokenizer only approximates the model's. */
export function formatTokens(tokens: number, exact = true): string {
  return `${exact ? '' : '≈'}${formatCount(tokens)}`;
}

/** "≈12,480 tok (corrected from 24 requests)": `text` marked when an endpoint's billed counts corrected its count. */
export function markCorrected(
  text: string,
  corrected: { requests: number } | undefined,
  t: Translate = english,
): string {
  return corrected ? t('{0} (corrected from {1} requests)', text, formatCount(corrected.requests)) : text;
}

/**
 * A count as every surface shows it: "≈12,480", and "≈12,480 (corrected from 24 requests)" when an endpoint's
 * billed counts corrected it (core/calibrate/tokenCorrection.ts).
 */
export function formatTokenCount(
  tokens: number,
  exact: boolean,
  corrected: { requests: number } | undefined,
  t: Translate = english,
): string {
  return markCorrected(formatTokens(tokens, exact), corrected, t);
}

/** "420 ms (310 ms–600 ms)": the typical value and its range. */
export function formatRange(range: { p50: number; low: number; high: number }): string {
  return `${formatMs(range.p50)} (${formatMs(range.low)}–${formatMs(range.high)})`;
}
