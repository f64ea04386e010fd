import type { ChatRole, SourceRange } from './types';

export interface RoleSection {
  role: ChatRole;
  /** The section text with surrounding blank lines and whitespace trimmed. */
  text: string;
  range: SourceRange;
}

/** `system:` / `user:` / `assistant:` (also developer, tool) alone on a line, as Prompty writes them. */
const ROLE_LINE = /^[ \t]*(system|developer|user|assistant|tool)[ \t]*:[ \t]*\r?$/gim;

/**
 * Splits text at role-marker lines. Returns undefined when there are none (the caller then keeps
 * the exact text as one message). Text before the first marker, if any, is a user message.
 */
export function splitRoleSections(text: string, offset: number): RoleSection[] | undefined {
  const markers = [...text.matchAll(ROLE_LINE)];
  if (markers.length === 0) return undefined;
  const sections: RoleSection[] = [];
  const push = (role: ChatRole, from: number, to: number): void => {
    const raw = text.slice(from, to);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed.length === 0 && from === 0) return;
    sections.push({ role, text: trimmed, range: { start: offset + from + lead, end: offset + from + lead + trimmed.length } });
  };
  push('user', 0, (markers[0] as RegExpMatchArray).index ?? 0);
  markers.forEach((marker, i) => {
    const next = markers[i + 1];
    const start = (marker.index ?? 0) + marker[0].length;
    push((marker[1] as string).toLowerCase() as ChatRole, start, next?.index ?? text.length);
  });
  return sections;
}
