import { formatOf, type PromptFormat } from './formats';
import { parseChatJson } from './chatJson';
import { parsePlain } from './plain';
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
  const parsed = parseFormat(formatOf(fileName, options.disabledFormats), text, patterns);
  return { ...parsed, errors: [...errors, ...parsed.errors] };
}

function parseFormat(format: PromptFormat, text: string, patterns: readonly RegExp[]): ParsedPrompt {
  switch (format) {
    case 'prompt-yaml':
      return parsePromptYaml(text, patterns);
    case 'chat-json':
      return parseChatJson(text, patterns);
    case 'plain':
      return parsePlain(text, patterns);
    case 'prompty':
    case 'prompt-md':
    case 'instructions':
    case 'agent':
    case 'copilot-instructions':
    case 'agents-md':
    case 'skill':
    case 'cursor-rules':
      // Front matter and a Markdown body.
      return parseFrontMatterPrompt(format, text, patterns);
  }
}
