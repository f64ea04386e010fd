import { z } from 'zod';
import { bearer, errorText, readFrame, type ChunkInfo, type WireFormat } from './types';

const lineSchema = z.object({
  message: z.object({ content: z.string().nullish(), thinking: z.string().nullish() }).nullish(),
  done: z.boolean().optional(),
  done_reason: z.string().nullish(),
  prompt_eval_count: z.number().optional(),
  eval_count: z.number().optional(),
  error: z.unknown().optional(),
});

/** Ollama's native /api/chat: newline-delimited JSON, not SSE. */
export const ollamaChat: WireFormat = {
  framing: 'ndjson',
  path: '/api/chat',
  headers: bearer,
  body: ({ model, messages, maxTokens }) => ({
    model,
    messages: messages.map((m) => ({ role: m.role === 'developer' ? 'system' : m.role, content: m.content })),
    stream: true,
    options: { temperature: 0, num_predict: maxTokens },
  }),
  interpret: (frame): ChunkInfo => {
    const { value, malformed } = readFrame(frame, lineSchema);
    if (!value) return malformed ? { malformed } : {};
    if (value.error !== undefined) return { error: errorText(value.error) };
    const info: ChunkInfo = { text: (value.message?.content ?? '') + (value.message?.thinking ?? '') };
    if (value.done) {
      info.done = true;
      info.finish = value.done_reason ?? 'stop';
      info.inputTokens = value.prompt_eval_count;
      info.outputTokens = value.eval_count;
    }
    return info;
  },
};
