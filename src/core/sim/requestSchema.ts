import { z } from 'zod';

const content = z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }))]);
const common = {
  model: z.string().optional(),
  stream: z.boolean().optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
};

export const chatRequestSchema = z.object({
  ...common,
  messages: z
    .array(z.object({ role: z.string(), content: content.nullish() }))
    .min(1, 'must hold at least one message'),
});

export const completionRequestSchema = z.object({
  ...common,
  prompt: z.union([z.string(), z.array(z.string())]),
});

export type SimRequest = z.output<typeof chatRequestSchema> | z.output<typeof completionRequestSchema>;

/** The text the simulated model reads, roughly as a chat template would lay it out. */
export function promptText(request: SimRequest): string {
  if ('messages' in request) {
    return request.messages
      .map(
        (m) =>
          `<|${m.role}|>${typeof m.content === 'string' ? m.content : (m.content ?? []).map((p) => p.text ?? '').join('')}`,
      )
      .join('\n');
  }
  return Array.isArray(request.prompt) ? request.prompt.join('') : request.prompt;
}
