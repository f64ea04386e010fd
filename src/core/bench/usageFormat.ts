// How the usage self-check reads, for the CLI report and the results view (no tokenizer imports: the
// webview bundles this).
import { formatCount } from '../format';
import type { UsageCheck } from './result';

/**
 * "endpoint billed 35, local 35 ✓" or "endpoint billed 5,764, local 5,813: −49, the endpoint billed fewer than
 * counted locally (another tokenizer or template on the server?)": counts as every surface formats them
 * (core/format.ts), and which way a difference goes in words.
 */
export function formatUsageCheck(check: UsageCheck): string {
  const head = `endpoint billed ${formatCount(check.billed)}, local ${formatCount(check.local)}`;
  const over =
    check.requests > 1 ? ` (${formatCount(check.matched)}/${formatCount(check.requests)} requests equal)` : '';
  if (usageMatches(check)) return `${head} ✓${over}`;
  return `${head}: ${usageDifference(check)}, ${usageDirection(check)}${check.hint ? ` (${check.hint})` : ''}${over}`;
}

/** Billed minus local: "+21", "−1,021", or "+3 to +5" when requests differ. */
export function usageDifference(check: UsageCheck): string {
  return check.minDiff === check.maxDiff
    ? signed(check.minDiff)
    : `${signed(check.minDiff)} to ${signed(check.maxDiff)}`;
}

/** Which way the bill differs from the local count, in words. */
export function usageDirection(check: Pick<UsageCheck, 'minDiff' | 'maxDiff'>): string {
  if (check.minDiff > 0) return 'the endpoint billed more than counted locally';
  if (check.maxDiff < 0) return 'the endpoint billed fewer than counted locally';
  if (check.minDiff === 0 && check.maxDiff === 0) return 'the endpoint billed what was counted locally';
  return 'the endpoint billed more than counted locally on some requests and fewer on others';
}

export function usageMatches(check: UsageCheck): boolean {
  return check.minDiff === 0 && check.maxDiff === 0;
}

/** "llama3 + llama-3.1 template", "≈ cl100k_base + chat overhead rule": how the local count was made. */
export function usageBasis(check: UsageCheck): string {
  return `${check.exact ? '' : '≈ '}${check.tokenizer}${check.template ? ` + ${check.template} template` : ' + chat overhead rule'}`;
}

function signed(n: number): string {
  return n > 0 ? `+${formatCount(n)}` : n < 0 ? `−${formatCount(-n)}` : '0';
}
