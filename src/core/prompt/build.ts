import type { PromptFormat } from './formats';
import { splitRoleSections } from './roles';
import { renderVariables } from './variables';
import type { ChatRole, ParseError, ParsedPrompt, PromptSettings, SourceRange, TemplateVariable } from './types';

export interface Section {
  role: ChatRole;
  text: string;
  /** Where the message is in the file. */
  range: SourceRange;
  /** Where `text` starts verbatim in the file, when it does (not for escaped or folded YAML/JSON strings). */
  textOffset?: number;
}

/** Turns located message texts into a ParsedPrompt: variables found, filled from the sample data. */
export function buildPrompt(
  format: PromptFormat,
  sections: readonly Section[],
  settings: PromptSettings,
  errors: ParseError[],
  patterns: readonly RegExp[],
): ParsedPrompt {
  const variables: TemplateVariable[] = [];
  const messages = sections.map((section) => {
    const result = renderVariables(section.text, section.textOffset ?? 0, patterns, settings.sample);
    // Without a verbatim offset, a variable can only be placed at its message.
    // A loop, not push(...): a message can hold more variables than a call takes arguments.
    for (const v of result.variables)
      variables.push(section.textOffset === undefined ? { ...v, range: section.range } : v);
    return { role: section.role, text: section.text, rendered: result.rendered, range: section.range };
  });
  return { format, messages, variables, settings, errors };
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

/** A body of text (a whole plain file, a front-matter file's body): split at role markers, or one user message. */
export function bodySections(body: string, offset: number): Section[] {
  return (
    splitRoleSections(body, offset)?.map((s) => ({ ...s, textOffset: s.range.start })) ?? [rawSection(body, offset)]
  );
}

export function errorAt(message: string, range: SourceRange, severity: ParseError['severity'] = 'error'): ParseError {
  return { message, range, severity };
}
