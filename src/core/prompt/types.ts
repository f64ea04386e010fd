import type { RequestDeclarations } from './declarations';
import type { PromptFormat } from './formats';
import type { TemplateEngine } from './templateLanguage';

/** One chat message as an API receives it. */
export type ChatRole = 'system' | 'developer' | 'user' | 'assistant' | 'tool';

export interface ChatMessage {
  role: ChatRole;
  content: string;
  /** An assistant message's tool calls (OpenAI shape), when it made any. */
  toolCalls?: ToolCall[];
  /** A tool message's `tool_call_id`: the call it answers (some templates render it, e.g. Mistral v0.3's). */
  toolCallId?: string;
}

/** A tool call in an assistant message, as OpenAI's chat API sends it: `arguments` is JSON text. */
export interface ToolCall {
  id?: string;
  type: 'function';
  function: { name: string; arguments: string };
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
  /** An assistant message's tool calls (counted with the message, see countChat). */
  toolCalls?: ToolCall[];
  /** A tool message's `tool_call_id`. */
  toolCallId?: string;
}

export interface TemplateVariable {
  name: string;
  range: SourceRange;
  /** Whether sample data gave it a value; unfilled variables are counted as their literal text. */
  filled: boolean;
  /** Substituted, but the same on every request of a workspace (`${workspaceFolder}`): not dynamic. */
  stable?: boolean;
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
  /** Formats switched off (`promptLens.formats.disabled`): their files are read as plain text. */
  disabledFormats?: readonly PromptFormat[];
}

/**
 * When the assistant that reads an instruction file adds it to a request: on every request, when
 * a file matching the globs is in context, when the model asks for it (by its description), when
 * the user picks it (an agent, a manually attached rule).
 */
export type Activation =
  | { kind: 'always' }
  | { kind: 'globs'; globs: string[] }
  | { kind: 'on-request'; description?: string }
  | { kind: 'manual' }
  | { kind: 'agent' };

/** A Prompty `${env:NAME}` or `${file:path}` front-matter reference, resolved by Prompty when it loads the file. */
export interface FrontMatterReference {
  protocol: 'env' | 'file';
  /** The variable name or relative path. */
  target: string;
  /** `${env:NAME:default}`: what Prompty uses when the variable is unset. */
  fallback?: string;
  /** Front-matter path of the value, e.g. `model.connection.apiKey`. */
  field: string;
  range: SourceRange;
}

export interface PromptSettings {
  model?: string;
  /** Values that fill template variables (Prompty `sample`, `.prompt.yml` first `testData` case). */
  sample?: Record<string, unknown>;
  /** Instruction formats: when they are added to a request. */
  activation?: Activation;
  /** Prompty: references shown as written (not read here). */
  references?: FrontMatterReference[];
  /** Tools and response format the file declares for its request (counted with the messages, see countChat). */
  request?: RequestDeclarations;
}

/** Every prompt format becomes this: what the model will see, and where it came from. */
export interface ParsedPrompt {
  format: PromptFormat;
  /** The template language variables were read with. */
  engine: TemplateEngine;
  messages: PromptMessage[];
  variables: TemplateVariable[];
  settings: PromptSettings;
  errors: ParseError[];
}
