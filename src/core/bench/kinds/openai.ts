import { z } from 'zod';
import type { ChatMessage } from '../../prompt/types';
import type { Frame } from '../framing';
import { bearer, errorText, readFrame, type ChunkInfo, type WireFormat } from './types';

const chunkSchema = z.object({
  choices: z
    .array(
      z.object({
        // Chat streams carry `delta`; completions streams carry `text`. Reasoning servers (vLLM,
        // DeepSeek, OpenRouter) stream generated reasoning as its own field: those are tokens too.
        delta: z
          .object({
            content: z.string().nullish(),
            reasoning_content: z.string().nullish(),
            reasoning: z.string().nullish(),
          })
          .nullish(),
        text: z.string().nullish(),
        finish_reason: z.string().nullish(),
      }),
    )
    .nullish(),
  usage: z.object({ prompt_tokens: z.number().optional(), completion_tokens: z.number().optional() }).nullish(),
  error: z.unknown().optional(),
});

/** Reads OpenAI-style chunks; shared by chat and completions streams. */
export function interpretOpenAi(frame: Frame): ChunkInfo {
  if (frame.data.trim() === '[DONE]') return { done: true };
  if (frame.event === 'error') return { error: errorOf(frame.data) };
  const { value, malformed } = readFrame(frame, chunkSchema);
  if (!value) return malformed ? { malformed } : {};
  if (value.error !== undefined && value.error !== null) return { error: errorText(value.error) };
  const info: ChunkInfo = {};
  const choice = value.choices?.[0];
  if (choice) {
    info.text =
      (choice.delta?.content ?? '') +
      (choice.delta?.reasoning_content ?? choice.delta?.reasoning ?? '') +
      (choice.text ?? '');
    if (choice.finish_reason) info.finish = choice.finish_reason;
  }
  if (value.usage) {
    info.inputTokens = value.usage.prompt_tokens;
    info.outputTokens = value.usage.completion_tokens;
  }
  return info;
}

function errorOf(data: string): string {
  try {
    return errorText(JSON.parse(data));
  } catch {
    return data;
  }
}

/** `developer` is OpenAI's newer name for `system`; most OpenAI-compatible servers only know `system`. */
function wireMessages(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((m) => (m.role === 'developer' ? { ...m, role: 'system' } : m));
}

const common = { framing: 'sse', headers: bearer, interpret: interpretOpenAi } as const;

/** Streamed, deterministic, with the usage trailer (vLLM, SGLang and OpenAI send it when asked). */
function streamed(model: string, maxTokens: number, input: Record<string, unknown>): Record<string, unknown> {
  return {
    model,
    ...input,
    stream: true,
    stream_options: { include_usage: true },
    temperature: 0,
    max_tokens: maxTokens,
  };
}

export const openAiChat: WireFormat = {
  ...common,
  path: '/chat/completions',
  body: ({ model, messages, maxTokens }) => streamed(model, maxTokens, { messages: wireMessages(messages) }),
};

export const openAiCompletions: WireFormat = {
  ...common,
  path: '/completions',
  body: ({ model, messages, maxTokens }) =>
    streamed(model, maxTokens, { prompt: messages.map((m) => m.content).join('\n\n') }),
};
