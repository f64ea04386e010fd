import type { PromptFormat } from './formats';
import { splitRoleSections } from './roles';
import type { TemplateLanguage } from './templateLanguage';
import { renderVariables } from './variables';
import type {
  ChatRole,
  ToolCall,
  ParseError,
  ParsedPrompt,
  PromptSettings,
  SourceRange,
  TemplateVariable,
} from './types';

export interface Section {
  role: ChatRole;
  text: string;
  /** Where the message is in the file. */
  range: SourceRange;
  /** Where `text` starts verbatim in the file, when it does (not for escaped or folded YAML/JSON strings). */
  textOffset?: number;
  /** Maps an offset in `text` to the file where the text is re-indented (a YAML literal block). */
  locate?: (offsetInText: number) => number;
  /** An assistant message's tool calls; a tool message's `tool_call_id`. */
  toolCalls?: ToolCall[];
  toolCallId?: string;
}

/** Turns located message texts into a ParsedPrompt: variables found, filled from the sample data. */
export function buildPrompt(
  format: PromptFormat,
  sections: readonly Section[],
  settings: PromptSettings,
  errors: ParseError[],
  language: TemplateLanguage,
): ParsedPrompt {
  const variables: TemplateVariable[] = [];
  const messages = sections.map((section) => {
    const result = renderVariables(section.text, section.locate ?? section.textOffset ?? 0, language, settings.sample);
    // Without a verbatim offset or a map, a variable can only be placed at its message.
    const placed = section.textOffset !== undefined || section.locate !== undefined;
    // A loop, not push(...): a message can hold more variables than a call takes arguments.
    for (const v of result.variables) variables.push(placed ? v : { ...v, range: section.range });
    return {
      role: section.role,
      text: section.text,
      rendered: result.rendered,
      range: section.range,
      ...(section.toolCalls ? { toolCalls: section.toolCalls } : {}),
      ...(section.toolCallId !== undefined ? { toolCallId: section.toolCallId } : {}),
    };
  });
  return { format, engine: language.engine, messages, variables, settings, errors };
}

/** The offset where `value` appears verbatim inside `range` of `fileText`, if it does. */
export function verbatimOffset(fileText: string, range: SourceRange, value: string): number | undefined {
  const index = fileText.slice(range.start, range.end).indexOf(value);
  return index < 0 ? undefined : range.start + index;
}

/** A structure that could not be read: its raw text still counts, as one user message. */
export function rawSection(text: string, offset = 0): Section {
  return { role: 'user', text, range: { start: offset, end: offset + text.length }, textOffset: offset };
}

/** A body of text (a whole plain file, a front-matter file's body): split at role markers, or one message of `role`. */
export function bodySections(body: string, offset: number, role: ChatRole = 'user'): Section[] {
  return (
    splitRoleSections(body, offset)?.map((s) => ({ ...s, textOffset: s.range.start })) ?? [
      { ...rawSection(body, offset), role },
    ]
  );
}

export function errorAt(message: string, range: SourceRange, severity: ParseError['severity'] = 'error'): ParseError {
  return { message, range, severity };
}

/**
 * For a YAML literal block (`content: |`): maps offsets in the block's value to the file, line by
 * line past the indentation. Undefined when the source lines do not give back the value exactly.
 */
export function literalBlockLocator(
  fileText: string,
  range: SourceRange,
  value: string,
): ((offsetInText: number) => number) | undefined {
  const header = fileText.indexOf('\n', range.start);
  if (header === -1 || !/^[|][-+]?\d*[ \t]*(#.*)?$/.test(fileText.slice(range.start, header).trimEnd()))
    return undefined;
  const lines = value.split('\n');
  const fileStarts: number[] = [];
  let at = header + 1;
  let indent = -1;
  for (const [i, line] of lines.entries()) {
    // The value's final line break leaves an empty last line that the source does not have.
    if (i === lines.length - 1 && line === '') {
      fileStarts.push(at);
      break;
    }
    const end = fileText.indexOf('\n', at) === -1 ? fileText.length : fileText.indexOf('\n', at);
    const source = fileText.slice(at, end).replace(/\r$/, '');
    if (indent === -1 && line !== '') indent = source.length - source.trimStart().length;
    const cut = Math.min(Math.max(indent, 0), source.length);
    if (source.slice(cut) !== line && !(line === '' && source.trim() === '')) return undefined;
    fileStarts.push(at + cut);
    at = end + 1;
  }
  const valueStarts: number[] = [];
  let v = 0;
  for (const line of lines) {
    valueStarts.push(v);
    v += line.length + 1;
  }
  return (offset) => {
    let lo = 0;
    let hi = fileStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((valueStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return (fileStarts[lo] as number) + (offset - (valueStarts[lo] as number));
  };
}
