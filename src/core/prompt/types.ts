import type { PromptFormat } from './formats';

/** One chat message as an API receives it. */
export type ChatRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface ChatMessage {
  role: ChatRole;
  content: string;
}

/** Half-open [start, end) UTF-16 offsets into the file text; adapters turn them into lines. */
export interface SourceRange {
  start: number;
  end: number;
}

export interface PromptMessage {
  role: ChatRole;
  /** The message text as written in the file (template placeholders left in). */
  text: string;
  /** The text the model sees: placeholders filled from sample data where a value exists. */
  rendered: string;
  range: SourceRange;
}

export interface TemplateVariable {
  name: string;
  range: SourceRange;
  /** Whether sample data gave it a value; unfilled variables are counted as their literal text. */
  filled: boolean;
}

export interface ParseError {
  message: string;
  range: SourceRange;
  /** Absent means 'error'. Warnings (e.g. an image part that is not counted) leave the structure usable. */
  severity?: 'error' | 'warning';
}

export interface ParseOptions {
  /** Extra variable patterns (regular expression sources, e.g. `promptLens.variablePatterns`); group 1 is the name. */
  variablePatterns?: readonly string[];
}

export interface PromptSettings {
  model?: string;
  /** Values that fill template variables (Prompty `sample`, `.prompt.yml` first `testData` case). */
  sample?: Record<string, unknown>;
}

/** Every prompt format becomes this: what the model will see, and where it came from. */
export interface ParsedPrompt {
  format: PromptFormat;
  messages: PromptMessage[];
  variables: TemplateVariable[];
  settings: PromptSettings;
  errors: ParseError[];
}
