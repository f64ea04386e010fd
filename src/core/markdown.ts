/**
 * Text from prompts, tables, settings and endpoints shown where Markdown is rendered. A variable
 * named `` topic` ![](https://attacker.example/b.png) `` must stay text: no remote image, link, code
 * span break-out, table cell split or `$(icon)`.
 */

/** Longest user-supplied piece shown in a hover, tooltip, notification or report cell. */
export const MAX_SHOWN = 300;

function clip(text: string, max: number): string {
  const line = text.replace(/\s*[\r\n]+\s*/g, ' ');
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * Plain text for Markdown (tables included): one line, clipped, with what could start a construct
 * escaped — links and images (`[`, `]`), code spans, HTML, emphasis, table cells, `$(icon)`s, and
 * bare `https://`, `www.` and e-mail autolinks, and a heading, list or rule mark at its start. Ordinary punctuation (`/`, `.`, `-`, `:`) stays as typed, so
 * the raw text still reads as the message.
 */
export function markdownText(text: string, max = MAX_SHOWN): string {
  return clip(text.trim(), max)
    .replace(/[\\`*_[\]<>|$@]/g, '\\$&')
    .replace(/^[#+\-=~]|^(\d+)([.)])/, (m, digits?: string, mark?: string) =>
      digits ? `${digits}\\${mark}` : `\\${m}`,
    )
    .replace(/:\/\//g, ':\\/\\/')
    .replace(/\bwww\./gi, (w) => `${w.slice(0, 3)}\\.`);
}

/**
 * An identifier (target, model, variable) as a code span its text cannot leave. A `|` would end a
 * table cell even inside the span (GFM splits cells first, and `\\|` there is a backslash and a
 * separator), so such text is shown as escaped plain text instead.
 */
export function markdownCode(text: string, max = MAX_SHOWN): string {
  const line = clip(text, max);
  if (line.includes('|')) return markdownText(text, max);
  const fence = '`'.repeat(Math.max(0, ...(line.match(/`+/g) ?? []).map((run) => run.length)) + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * Text for a VS Code notification, whose messages turn `[label](command:…)` and `[label](https://…)`
 * into live links: one line, clipped, and every `](` broken by a zero-width space.
 */
export function notificationText(text: string, max = 2 * MAX_SHOWN): string {
  return clip(text, max).replace(/\]\s*\(/g, ']\u200b(');
}
