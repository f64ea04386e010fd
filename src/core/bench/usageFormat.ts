// How the usage self-check reads, for the CLI report and the results view (no tokenizer imports: the
// webview bundles this).
import type { UsageCheck } from './result';

/** "endpoint billed 35, local 35 ✓" or "endpoint billed 35, local 14: +21 (template default system prompt?)". */
export function formatUsageCheck(check: UsageCheck): string {
  const head = `endpoint billed ${check.billed}, local ${check.local}`;
  const range =
    check.minDiff === check.maxDiff ? signed(check.minDiff) : `${signed(check.minDiff)} to ${signed(check.maxDiff)}`;
  const over = check.requests > 1 ? ` (${check.matched}/${check.requests} requests equal)` : '';
  if (check.minDiff === 0 && check.maxDiff === 0) return `${head} ✓${over}`;
  return `${head}: ${range}${check.hint ? ` (${check.hint})` : ''}${over}`;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}
