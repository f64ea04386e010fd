import type { EndpointKind } from '../endpoints';
import { anthropicMessages } from './anthropic';
import { ollamaChat } from './ollama';
import { openAiChat, openAiCompletions } from './openai';
import type { WireFormat } from './types';

export const WIRE_FORMATS: Record<EndpointKind, WireFormat> = {
  'openai-chat': openAiChat,
  'openai-completions': openAiCompletions,
  'anthropic-messages': anthropicMessages,
  'ollama-chat': ollamaChat,
};

export type { ChunkInfo, RequestShape, WireFormat } from './types';
