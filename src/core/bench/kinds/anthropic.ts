import { z } from 'zod';
import { errorText, readFrame, type ChunkInfo, type WireFormat } from './types';

const usageSchema = z.object({ input_tokens: z.number().nullish(), output_tokens: z.number().nullish() }).nullish();

const eventSchema = z.object({
  type: z.string(),
  delta: z
    .object({ text: z.string().optional(), thinking: z.string().optional(), stop_reason: z.string().nullish() })
    .optional(),
  message: z.object({ usage: usageSchema }).optional(),
  usage: usageSchema,
  error: z.unknown().optional(),
});

export const anthropicMessages: WireFormat = {
  framing: 'sse',
  path: '/messages',
  headers: (apiKey) => ({ 'anthropic-version': '2023-06-01', ...(apiKey ? { 'x-api-key': apiKey } : {}) }),
  body: ({ model, messages, maxTokens }) => {
    // The Messages API takes system text as a top-level field, not as a message.
    const system = messages.filter((m) => m.role === 'system' || m.role === 'developer').map((m) => m.content);
    const turns = messages
      .filter((m) => m.role !== 'system' && m.role !== 'developer')
      .map((m) => ({ role: m.role === 'assistant' ? 'assistant' : 'user', content: m.content }));
    return {
      model,
      max_tokens: maxTokens,
      temperature: 0,
      stream: true,
      ...(system.length ? { system: system.join('\n\n') } : {}),
      messages: turns,
    };
  },
  interpret: (frame): ChunkInfo => {
    const { value, malformed } = readFrame(frame, eventSchema);
    if (!value) return malformed ? { malformed } : frame.event === 'error' ? { error: frame.data } : {};
    switch (value.type) {
      case 'error':
        return { error: errorText(value.error ?? value) };
      case 'content_block_delta':
        return { text: (value.delta?.text ?? '') + (value.delta?.thinking ?? '') };
      case 'message_start':
        return { inputTokens: value.message?.usage?.input_tokens ?? undefined };
      case 'message_delta': {
        const info: ChunkInfo = { outputTokens: value.usage?.output_tokens ?? undefined };
        if (value.delta?.stop_reason) info.finish = value.delta.stop_reason;
        return info;
      }
      case 'message_stop':
        return { done: true };
      default:
        return {};
    }
  },
};
