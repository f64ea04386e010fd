import type { TargetEstimate } from '../core/analysis/targetEstimates';
import { formatMs, formatUsd } from '../core/format';
import type { Range } from '../core/estimate';

export { formatMs, formatUsd };

/** "12,480" with "≈" when the tokenizer only approximates the model's. */
export function fmtTokens(tokens: number, exact = true): string {
  return `${exact ? '' : '≈'}${tokens.toLocaleString('en-US')}`;
}

export function fmtRange(range: Range): string {
  return `${formatMs(range.p50)} (${formatMs(range.low)}–${formatMs(range.high)})`;
}

/** The status bar line: `12,480 tok · TTFT ≈ 0.9 s · $0.031`. */
export function statusLine(inputTokens: number, exact: boolean, primary: TargetEstimate | undefined): string {
  const tokens = `${fmtTokens(inputTokens, exact)} tok`;
  if (!primary) return tokens;
  const ttft = primary.warm ? primary.warm.ttftMs.p50 : primary.cold.ttftMs.p50;
  return `${tokens} · TTFT ≈ ${formatMs(ttft)} · ${formatUsd(primary.warm?.costUsd ?? primary.cold.costUsd)}`;
}
