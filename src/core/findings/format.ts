/** Number formatting shared by finding messages and the report table (en-US, stable across locales). */

export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function formatPercent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

/** "420 ms" below a second, "1.9 s" above. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** "$0.037", "$0.00012", "$12.40": two significant digits below a dollar, cents above. */
export function formatUsd(usd: number): string {
  if (usd >= 1) return `$${usd.toFixed(2)}`;
  if (usd === 0) return '$0';
  return `$${Number(usd.toPrecision(2)).toString()}`;
}
