import { formatCount, formatMs, formatUsd } from '../format';
import { markdownText } from '../markdown';
import { MAX_MATCHED_PATH } from '../promptFiles';
import { describeInstructionsBudget } from './instructions';
import type { PromptReport } from './report';
import { activationLabel, cacheRuleText, summarySentence } from './reportText';

/**
 * The workspace report as Markdown (for VS Code's Markdown preview). `link(file, line)` makes each
 * file and finding a link the editor can open; all text from prompts is escaped for table cells.
 */
export function reportMarkdown(report: PromptReport, link: (file: string, line: number) => string): string {
  const cell = (text: string) => markdownText(text, MAX_MATCHED_PATH);
  const { summary, target } = report;
  const lines = [
    '# Prompt Latency Lens — workspace report',
    '',
    `Target **${cell(target.label)}** (${cell(target.serving)}; tokenizer \`${target.tokenizer}\`, ${cacheRuleText(target.cacheRule)}). ${summarySentence(summary)}.`,
    '',
    `_TTFT and $/call are cold (nothing cached) at ${cell(target.scenario)}: the figures the editor's hover shows._`,
    ...(target.tokensCorrected
      ? [
          `_Token counts corrected from ${formatCount(target.tokensCorrected.requests)} requests: ${cell(target.tokensCorrected.formula)}._`,
        ]
      : []),
    '',
    '## Prompts',
    '',
    '| file | tokens | TTFT (cold) | $/call | retrieved-context tokens |',
    '|---|---:|---:|---:|---:|',
    ...report.files.map(
      (f) =>
        `| [${cell(f.file)}](${link(f.file, 1)}) | ${f.tokens.toLocaleString('en-US')} | ${formatMs(f.ttftMs)} | ${formatUsd(f.costUsd)} | ${f.regions.reduce((n, r) => n + r.tokens, 0).toLocaleString('en-US')} |`,
    ),
    '',
    '## Prefix-cache groups',
    '',
  ];
  if (report.cacheGroups.length === 0) lines.push('No two prompts share a cacheable prefix.');
  report.cacheGroups.forEach((g, i) => {
    lines.push(
      `**Group ${i + 1}**: ${g.sharedTokens.toLocaleString('en-US')} shared tokens, ${g.cacheableTokens.toLocaleString('en-US')} cacheable`,
      '',
    );
    lines.push('| file | prefix ends | warm vs cold TTFT | saved per 1,000 calls |', '|---|---|---|---:|');
    for (const m of g.members)
      lines.push(
        `| [${cell(m.file)}](${link(m.file, m.prefixEnd.startPosition.line)}) | line ${m.prefixEnd.startPosition.line} | ${formatMs(m.warmTtftMs)} vs ${formatMs(m.coldTtftMs)} | ${formatUsd(m.savedUsdPer1kCalls)} |`,
      );
    lines.push('');
  });
  const instructions = report.instructions;
  lines.push('', '## Always-on instructions', '');
  if (instructions.alwaysOn.length === 0) lines.push('None: no file is prepended to every chat request.');
  else {
    lines.push(
      `${cell(describeInstructionsBudget(instructions))}; budget ${instructions.maxTokens.toLocaleString('en-US')}. ` +
        'Sent first and unchanged on every request, they are the natural cacheable prefix.',
      '',
      '| file | tokens |',
      '|---|---:|',
      ...instructions.alwaysOn.map(
        (e) =>
          `| [${cell(e.file)}](${link(e.file, 1)})${e.skillMetadata ? ' (skill name and description)' : ''} | ${e.tokens.toLocaleString('en-US')} |`,
      ),
    );
  }
  if (instructions.conditional.length > 0)
    lines.push(
      '',
      '| other instruction files | tokens | applies |',
      '|---|---:|---|',
      ...instructions.conditional.map(
        (e) =>
          `| [${cell(e.file)}](${link(e.file, 1)}) | ${e.tokens.toLocaleString('en-US')} | ${cell(activationLabel(e.activation))} |`,
      ),
    );
  lines.push('', '## Findings', '');
  if (report.findings.length === 0) lines.push('None.');
  else {
    lines.push('| severity | where | code | finding |', '|---|---|---|---|');
    for (const f of report.findings) {
      const { line, column } = f.range.startPosition;
      lines.push(
        `| ${f.severity} | [${cell(f.file)}:${line}:${column}](${link(f.file, line)}) | \`${f.code}\` | ${cell(f.message)} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
