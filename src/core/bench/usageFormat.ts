// How the usage self-check reads, for the CLI report and the results view (no tokenizer imports: the
// webview bundles this).
import type { UsageCheck } from './result';

/** "endpoint billed 35, local 35 ✓" or "endpoint billed 35, local 14: +21 (template default system prompt?)". */
export function formatUsageCheck(check: UsageCheck): string {
  const head = `endpoint billed ${check.billed}, local ${check.local}`;
  const over = check.requests > 1 ? ` (${check.matched}/${check.requests} requests equal)` : '';
  if (usageMatches(check)) return `${head} ✓${over}`;
  return `${head}: ${usageDifference(check)}${check.hint ? ` (${check.hint})` : ''}${over}`;
}

/** Billed minus local: "+21", or "+3 to +5" when requests differ. */
export function usageDifference(check: UsageCheck): string {
  return check.minDiff === check.maxDiff
    ? signed(check.minDiff)
    : `${signed(check.minDiff)} to ${signed(check.maxDiff)}`;
}

export function usageMatches(check: UsageCheck): boolean {
  return check.minDiff === 0 && check.maxDiff === 0;
}

/** "llama3 + llama-3.1 template", "≈ cl100k_base + chat overhead rule": how the local count was made. */
export function usageBasis(check: UsageCheck): string {
  return `${check.exact ? '' : '≈ '}${check.tokenizer}${check.template ? ` + ${check.template} template` : ' + chat overhead rule'}`;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}
