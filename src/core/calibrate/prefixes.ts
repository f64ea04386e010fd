import type { ChatMessage } from '../prompt/types';

/** Calibration lengths: shares of the prompt, shortest first. */
export const DEFAULT_FRACTIONS = [0.25, 0.5, 1] as const;

/**
 * The prompt cut to a share of its characters, keeping message order: earlier messages stay
 * whole, the message where the cut falls is truncated, later ones are dropped. The last kept
 * message must be one the API accepts last, so an assistant tail becomes user text.
 */
export function promptPrefix(messages: readonly ChatMessage[], fraction: number): ChatMessage[] {
  if (!(fraction > 0 && fraction <= 1)) throw new RangeError(`fraction must be in (0, 1], got ${fraction}`);
  const total = messages.reduce((n, m) => n + m.content.length, 0);
  let budget = Math.max(1, Math.round(total * fraction));
  const out: ChatMessage[] = [];
  for (const message of messages) {
    if (budget <= 0) break;
    const content = message.content.slice(0, budget);
    budget -= message.content.length;
    out.push({ ...message, content });
  }
  const last = out[out.length - 1];
  if (last && last.role !== 'user') out.push({ role: 'user', content: 'Continue.' });
  return out;
}
