import {
  estimate,
  parseTargetId,
  resolveTarget,
  targetModelId,
  targetTokenizerId,
  type CalibrationProfile,
  type Tables,
  type TargetAssumptions,
} from '../estimate';
import { countChat } from '../count';
import type { ChatMessage } from '../prompt/types';
import { tokenizerFor } from '../tokenize/models';
import { getTokenizer } from '../tokenize/registry';

export type Prediction =
  { ok: true; ttftMs: number; tpotMs: number; inputTokens: number } | { ok: false; error: string };

/**
 * Input tokens of the messages as a target counts them (countChat: `model`'s chat template when its tokenizer is the
 * one counting, else content + chat overhead) — the count the editor's estimates for that target take.
 */
export function messageTokenCounter(
  messages: readonly ChatMessage[],
): (tokenizerName: string, model: string | undefined) => number {
  return (name, model) => countChat(messages, getTokenizer(tokenizerFor(name)), undefined, model).inputTokens;
}

/**
 * What the estimation engine predicts for an endpoint mapped to a target (cold prompt, one request
 * at a time), to show beside the measurement. A measured calibration profile replaces the model.
 */
export function predictEndpoint(
  tables: Tables,
  targetId: string,
  countInput: (tokenizerName: string, model: string) => number,
  outputTokens: number,
  calibrationFor?: (resolvedId: string) => CalibrationProfile | undefined,
  assume: TargetAssumptions = {},
): Prediction {
  try {
    // A benchmark measures what a client sees: the http scope, whatever the editor's setting.
    const target = resolveTarget(parseTargetId(targetId), tables, { ...assume, scope: 'http' });
    const inputTokens = countInput(targetTokenizerId(target), targetModelId(target));
    const calibration = calibrationFor?.(target.id);
    const e = estimate(target, { inputTokens, outputTokens, ...(calibration ? { calibration } : {}) });
    return { ok: true, ttftMs: e.coldTtftMs.p50, tpotMs: e.tpotMs.p50, inputTokens };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
