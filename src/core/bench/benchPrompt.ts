import { listNames, unfilledVariables } from '../prompt/variables';
import type { ChatMessage, ParsedPrompt } from '../prompt/types';

export type BenchMessages = { ok: true; messages: ChatMessage[]; notSent?: string } | { ok: false; error: string };

/**
 * The messages a benchmark sends: the prompt as the model sees it. Unfilled template variables
 * stop the run, since benchmarking `{{name}}` literally would measure a different prompt.
 */
export function benchMessages(prompt: ParsedPrompt): BenchMessages {
  const unfilled = unfilledVariables(prompt);
  if (unfilled.length > 0) {
    return {
      ok: false,
      error: `the prompt has variables without sample values (${listNames(unfilled)}); give them sample data before benchmarking`,
    };
  }
  const messages = prompt.messages.map((m) => ({ role: m.role, content: m.rendered }));
  if (messages.length === 0 || messages.every((m) => m.content.trim() === '')) {
    // Parse diagnostics alone do not stop a run; a prompt with nothing to send does, and they say why.
    const why = prompt.errors[0] ? ` (${prompt.errors[0].message})` : '';
    return { ok: false, error: `the prompt has no message text to send${why}` };
  }
  const notSent = unsentParts(prompt);
  return notSent ? { ok: true, messages, notSent } : { ok: true, messages };
}

/**
 * What the file declares that a benchmark request does not carry (it sends each message's role and text):
 * said beside the run, since the editor's count includes them and the measurement then covers a shorter prompt.
 */
function unsentParts(prompt: ParsedPrompt): string | undefined {
  const tools = prompt.settings.request?.tools?.length ?? 0;
  const calls = prompt.messages.reduce((n, m) => n + (m.toolCalls?.length ?? 0), 0);
  const parts = [
    ...(tools > 0 ? [`${tools} declared tool${tools === 1 ? '' : 's'}`] : []),
    ...(prompt.settings.request?.responseFormat ? ['the response format'] : []),
    ...(calls > 0 ? [`${calls} tool call${calls === 1 ? '' : 's'} in the history`] : []),
  ];
  if (parts.length === 0) return undefined;
  return `the benchmark sends each message's role and text only; not sent: ${parts.join(', ')} — it measures a shorter prompt than the editor counts`;
}

/**
 * Makes nonces that never repeat within a run: a random run prefix plus a counter. Put first in the
 * first message, it makes every request's token sequence unique from its first block, so no
 * prefix cache can serve any of it.
 */
export function nonceSource(random: () => number = Math.random): () => string {
  const run = Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  let counter = 0;
  return () => `${run}${(counter++).toString(36)}`;
}

export function withNonce(messages: ChatMessage[], nonce: string): ChatMessage[] {
  return messages.map((m, i) => (i === 0 ? { ...m, content: `[${nonce}] ${m.content}` } : m));
}
