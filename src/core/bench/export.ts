import type { BenchResult } from './result';

const COLUMNS = [
  'cache',
  'level',
  'concurrency',
  'rate_per_s',
  'start_ms',
  'ok',
  'ttfb_ms',
  'ttft_ms',
  'tpot_ms',
  'e2e_ms',
  'output_tokens',
  'output_tokens_source',
  'input_tokens',
  'finish_reason',
  'error_class',
  'error_status',
  'error_message',
] as const;

/** One CSV row per measured request (RFC 4180 quoting), for spreadsheets and notebooks. */
export function benchResultCsv(result: BenchResult): string {
  const rows: (string | number | boolean | undefined)[][] = [];
  for (const mode of result.modes) {
    for (const level of mode.levels) {
      for (const r of level.requests) {
        rows.push([
          mode.cache,
          level.label,
          level.concurrency,
          level.ratePerSecond,
          r.startMs,
          r.ok,
          r.ttfbMs,
          r.ttftMs,
          r.tpotMs,
          r.e2eMs,
          r.outputTokens,
          r.outputTokensSource,
          r.inputTokens,
          r.finishReason,
          r.error?.class,
          r.error?.status,
          r.error?.message,
        ]);
      }
    }
  }
  return [COLUMNS.join(','), ...rows.map((row) => row.map(csvField).join(','))].join('\r\n') + '\r\n';
}

function csvField(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  const text = String(value);
  // Quote fields with separators, quotes or line breaks; a leading =, +, -, @, TAB or CR is
  // neutralised (OWASP's list) so a spreadsheet never evaluates an endpoint's error text as a formula.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) || safe !== text ? `"${safe.replace(/"/g, '""')}"` : safe;
}
