import { formatOf } from '../promptFiles';
import { parseChatJson } from './chatJson';
import { parsePlain } from './plain';
import { parseFrontMatterPrompt } from './prompty';
import { parsePromptYaml } from './promptYaml';
import type { ParsedPrompt, ParseOptions } from './types';
import { compilePatterns } from './variables';

/** VS Code prompt files reference `${input:name}` (or `${input:name:placeholder}`), `${selection}`, `${file}`. */
const PROMPT_MD_VARIABLES = /\$\{((?:input:)?[^{}:]+)(?::[^{}]*)?\}/g;

/**
 * Turns a prompt file into the messages a model will see. Never throws: malformed files yield
 * errors with ranges and their raw text as one message, so a best-effort count remains.
 */
export function parsePrompt(fileName: string, text: string, options: ParseOptions = {}): ParsedPrompt {
  const format = formatOf(fileName);
  const { patterns, errors } = compilePatterns(options.variablePatterns, format === 'prompt-md' ? [PROMPT_MD_VARIABLES] : []);
  const parsed =
    format === 'prompty' || format === 'prompt-md'
      ? parseFrontMatterPrompt(format, text, patterns)
      : format === 'prompt-yaml'
        ? parsePromptYaml(text, patterns)
        : format === 'chat-json'
          ? parseChatJson(text, patterns)
          : parsePlain(text, patterns);
  return { ...parsed, errors: [...errors, ...parsed.errors] };
}
