import { listNames, unfilledVariables } from '../prompt/variables';
import type { ChatMessage, ParsedPrompt } from '../prompt/types';

export type BenchMessages = { ok: true; messages: ChatMessage[] } | { ok: false; error: string };

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
  return { ok: true, messages };
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
