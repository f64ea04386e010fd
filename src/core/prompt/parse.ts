import { formatOf } from '../promptFiles';
import type { ParsedPrompt } from './types';

/**
 * Turns a prompt file into the messages a model will see.
 * First cut: every file is one user message holding its exact text.
 */
export function parsePrompt(fileName: string, text: string): ParsedPrompt {
  return {
    format: formatOf(fileName),
    messages: [{ role: 'user', text, rendered: text, range: { start: 0, end: text.length } }],
    variables: [],
    settings: {},
    errors: [],
  };
}
