import { countChat, type ChatCount } from '../count';
import { CountMemo } from '../tokenize/countMemo';
import { tokenizerFor, tokenizerForModel } from '../tokenize/models';
import { getTokenizer } from '../tokenize/registry';
import type { ChatMessage } from '../prompt/types';
import { withNonce } from './benchPrompt';
import type { BenchResult, RequestRecord, UsageCheck } from './result';

/** Counts one request's messages as the endpoint's model is billed (see countChat). */
export type RequestCounter = (messages: ChatMessage[]) => ChatCount;

/**
 * Compares every request that reported prompt tokens with the local count of the messages it sent.
 * Counts are memoised per distinct request (warm requests are identical; cold ones differ by nonce),
 * and each new count waits for the event loop first: the editor runs this on its host thread, and a
 * run's cold requests are one whole-prompt count each. Undefined when no request reported usage.
 */
export async function usageCheck(
  result: BenchResult,
  messages: ChatMessage[],
  count: RequestCounter,
): Promise<UsageCheck | undefined> {
  const reported: RequestRecord[] = [];
  for (const mode of result.modes)
    for (const level of mode.levels) for (const r of level.requests) if (r.inputTokens !== undefined) reported.push(r);
  const first = reported[0];
  if (!first) return undefined;
  const memo = new Map<string, ChatCount>();
  const diffs: number[] = [];
  // Each distinct (local, billed) pair with its requests: what a token correction is fitted on.
  const pairs = new Map<string, { local: number; billed: number; requests: number }>();
  for (const r of reported) {
    const key = r.nonce ?? '';
    let counted = memo.get(key);
    if (!counted) {
      await new Promise((resolve) => setImmediate(resolve));
      counted = count(r.nonce === undefined ? messages : withNonce(messages, r.nonce));
      memo.set(key, counted);
    }
    const billed = r.inputTokens as number;
    diffs.push(billed - counted.inputTokens);
    const pair = `${counted.inputTokens}:${billed}`;
    const seen = pairs.get(pair);
    if (seen) seen.requests++;
    else pairs.set(pair, { local: counted.inputTokens, billed, requests: 1 });
  }
  const sample = memo.get(first.nonce ?? '') as ChatCount;
  const minDiff = Math.min(...diffs);
  const maxDiff = Math.max(...diffs);
  const check: UsageCheck = {
    requests: reported.length,
    matched: diffs.filter((d) => d === 0).length,
    billed: first.inputTokens as number,
    local: sample.inputTokens,
    minDiff,
    maxDiff,
    tokenizer: sample.tokenizer,
    exact: sample.exact,
    ...(sample.template ? { template: sample.template.id } : {}),
    samples: [...pairs.values()],
  };
  const hint = usageHint(check, sample);
  return hint ? { ...check, hint } : check;
}

function usageHint(check: UsageCheck, sample: ChatCount): string | undefined {
  if (check.minDiff === 0 && check.maxDiff === 0) return undefined;
  if (!check.exact) return `the local count approximates ${check.tokenizer}`;
  if (check.minDiff > 0 && !sample.template) return 'template default system prompt?';
  if (check.minDiff > 0) return 'a different chat template or system prompt on the server?';
  return 'another tokenizer or template on the server?';
}

/**
 * How an endpoint's requests are counted locally: its model's tokenizer and chat template (an
 * unknown model name falls back to its target's model), memoised per message text. Undefined for
 * raw completions, whose prompt is not a chat.
 */
export function endpointRequestCounter(endpoint: BenchResult['endpoint']): RequestCounter | undefined {
  if (endpoint.kind === 'openai-completions') return undefined;
  const targetModel = endpoint.target?.replace(/@.*$/, '').replace(/^.*\//, '');
  const model =
    tokenizerForModel(endpoint.model) === 'approximate' && targetModel !== undefined ? targetModel : endpoint.model;
  const tokenizer = getTokenizer(tokenizerFor(model));
  const memo = new CountMemo(tokenizer);
  return (messages) => countChat(messages, tokenizer, memo, model);
}
