import { formatOf } from './formats';
import { parseChatJson } from './chatJson';
import { parsePlain } from './plain';
import { parsePromptMd } from './promptMd';
import { parseFrontMatterPrompt } from './prompty';
import { parsePromptYaml } from './promptYaml';
import type { ParsedPrompt, ParseOptions } from './types';
import { compilePatterns } from './variables';

/**
 * Turns a prompt file into the messages a model will see. Never throws: malformed files yield
 * errors with ranges and their raw text as one message, so a best-effort count remains.
 */
export function parsePrompt(fileName: string, text: string, options: ParseOptions = {}): ParsedPrompt {
  const { patterns, errors } = compilePatterns(options.variablePatterns);
  const parsed = parseFormat(formatOf(fileName), text, patterns);
  return { ...parsed, errors: [...errors, ...parsed.errors] };
}

function parseFormat(format: ReturnType<typeof formatOf>, text: string, patterns: readonly RegExp[]): ParsedPrompt {
  switch (format) {
    case 'prompty':
      return parseFrontMatterPrompt('prompty', text, patterns);
    case 'prompt-md':
      return parsePromptMd(text, patterns);
    case 'prompt-yaml':
      return parsePromptYaml(text, patterns);
    case 'chat-json':
      return parseChatJson(text, patterns);
    case 'plain':
      return parsePlain(text, patterns);
  }
}
