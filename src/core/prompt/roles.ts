import type { ChatRole, SourceRange } from './types';

export interface RoleSection {
  role: ChatRole;
  /** The section text without its leading and trailing line breaks (Prompty's rule). */
  text: string;
  range: SourceRange;
}

/**
 * A role marker alone on its line, as Prompty writes them: `system:`, `user:`, `assistant:`,
 * `developer:`, case-insensitive, optionally as a Markdown heading (`# user:`) and with attributes
 * (`user[name="Ada"]:`). Each part can match in one way only, so hostile lines stay linear.
 */
const ROLE_LINE = /^[ \t]*(?:#[ \t]*)?(system|developer|user|assistant)(?:\[[^\]\r\n]*\])?[ \t]*:[ \t]*\r?$/gim;

/**
 * Splits text at role-marker lines; undefined when there are none (the caller then keeps the exact
 * text as one message). Text before the first marker is a system message, as in Prompty.
 */
export function splitRoleSections(text: string, offset: number): RoleSection[] | undefined {
  const markers = roleMarkers(text);
  if (markers.length === 0) return undefined;
  const sections: RoleSection[] = [];
  const push = (role: ChatRole, from: number, to: number): void => {
    const [start, end] = withoutEdgeLineBreaks(text, from, to);
    sections.push({ role, text: text.slice(start, end), range: { start: offset + start, end: offset + end } });
  };
  const firstMarker = markers[0]?.index ?? 0;
  if (text.slice(0, firstMarker).trim().length > 0) push('system', 0, firstMarker);
  markers.forEach((marker, i) => {
    const start = (marker.index ?? 0) + marker[0].length;
    push((marker[1] as string).toLowerCase() as ChatRole, start, markers[i + 1]?.index ?? text.length);
  });
  return sections;
}

/** The role-marker lines of `text`, in order. */
export function roleMarkers(text: string): RegExpExecArray[] {
  return [...text.matchAll(ROLE_LINE)] as RegExpExecArray[];
}

/**
 * Each marked role section as an editor folds it: from its marker line's start to the end of its last
 * non-blank character (text before the first marker has no marker to fold at).
 */
export function roleSectionSpans(text: string, offset: number): SourceRange[] {
  const markers = roleMarkers(text);
  return markers.map((marker, i) => {
    let end = markers[i + 1]?.index ?? text.length;
    while (end > marker.index && /\s/.test(text[end - 1]!)) end--;
    return { start: offset + marker.index, end: offset + end };
  });
}

/**
 * [from, to) less its leading and trailing line breaks; a loop, since a regex anchored at `$` goes quadratic on long
 * runs.
 */
function withoutEdgeLineBreaks(text: string, from: number, to: number): [number, number] {
  const isBreak = (i: number): boolean => text[i] === '\n' || text[i] === '\r';
  let start = from;
  let end = to;
  while (start < end && isBreak(start)) start++;
  while (end > start && isBreak(end - 1)) end--;
  return [start, end];
}
