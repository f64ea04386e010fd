import { z } from 'zod';

/**
 * The OpenAI request fields this server honours; the rest of the API (tools, logprobs, n > 1…) is
 * rejected by name rather than silently ignored, so a test never measures something it did not ask for.
 */
const common = {
  model: z.string().min(1).optional(),
  stream: z.boolean().default(false),
  stream_options: z.object({ include_usage: z.boolean().optional() }).nullish(),
  max_tokens: z.number().int().min(1).max(65536).optional(),
  max_completion_tokens: z.number().int().min(1).max(65536).optional(),
  temperature: z.number().min(0).max(2).default(0),
  top_p: z.number().gt(0).max(1).optional(),
  seed: z.number().int().optional(),
  n: z.literal(1).optional(),
  user: z.string().optional(),
};

const textPart = z.object({ type: z.literal('text'), text: z.string() });

const chatSchema = z.strictObject({
  ...common,
  messages: z
    .array(
      z.object({
        role: z.enum(['system', 'developer', 'user', 'assistant']),
        content: z.union([z.string(), z.array(textPart)]),
        name: z.string().optional(),
      }),
    )
    .min(1),
});

const completionSchema = z.strictObject({ ...common, prompt: z.string() });

export interface GenerationRequest {
  model: string | undefined;
  /** The text to tokenise: the chat rendered with the template below, or the completion prompt. */
  prompt: string;
  stream: boolean;
  includeUsage: boolean;
  maxTokens: number;
  temperature: number;
  topP: number | undefined;
  seed: number | undefined;
}

/** OpenAI's default when max_tokens is absent is "up to the context"; a test server wants a short, bounded answer. */
export const DEFAULT_MAX_TOKENS = 16;

export type Parsed = { ok: true; value: GenerationRequest } | { ok: false; error: string };

export function parseRequest(kind: 'chat' | 'completion', body: unknown): Parsed {
  const parsed = kind === 'chat' ? chatSchema.safeParse(body) : completionSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, error: `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid request'}` };
  }
  const r = parsed.data;
  return {
    ok: true,
    value: {
      model: r.model,
      prompt: 'messages' in r ? renderChat(r.messages) : r.prompt,
      stream: r.stream,
      includeUsage: r.stream_options?.include_usage === true,
      maxTokens: r.max_completion_tokens ?? r.max_tokens ?? DEFAULT_MAX_TOKENS,
      temperature: r.temperature,
      topP: r.top_p,
      seed: r.seed,
    },
  };
}

/**
 * The chat template: each message as `<|role|>\n` + content + `\n`, then `<|assistant|>\n` to
 * open the answer. Plain text, so every character is counted like the rest of the prompt (a random
 * model has no template of its own; this one only has to be fixed and documented).
 */
export function renderChat(
  messages: readonly { role: string; content: string | readonly { text: string }[] }[],
): string {
  const text = (c: string | readonly { text: string }[]) => (typeof c === 'string' ? c : c.map((p) => p.text).join(''));
  return `${messages.map((m) => `<|${m.role}|>\n${text(m.content)}\n`).join('')}<|assistant|>\n`;
}
