import { formatCount } from '../format';
import type { ProviderRow } from './schemas';
import type { ResolvedTarget } from './targets';

/** The context window a target's requests must fit in. */
export function contextWindowOf(target: ResolvedTarget): number {
  return target.kind === 'provider' ? target.provider.contextWindow : target.model.contextWindow;
}

/**
 * "anthropic/claude-3.5-haiku was retired on 2026-02-19: requests to it fail; use
 * anthropic/claude-haiku-4.5 instead" (the row cites where that is stated).
 */
export function retiredMessage(provider: ProviderRow): string | undefined {
  const retired = provider.retired;
  if (!retired) return undefined;
  const successor = retired.successor ? `; use ${retired.successor} instead` : '';
  return `${provider.id} was retired on ${retired.date}: requests to it fail${successor}`;
}

/**
 * What makes a request to this target fail, as error messages: a retired provider model, a prompt
 * over the context window. Every surface shows these as errors, not notes.
 */
export function targetErrors(target: ResolvedTarget, inputTokens: number, label: string = target.id): string[] {
  const errors: string[] = [];
  const retired = target.kind === 'provider' ? retiredMessage(target.provider) : undefined;
  if (retired) errors.push(retired);
  const window = contextWindowOf(target);
  if (inputTokens > window)
    errors.push(
      `prompt of ${formatCount(inputTokens)} tokens exceeds ${label}'s ${formatCount(window)}-token context window by ${formatCount(inputTokens - window)}`,
    );
  return errors;
}
