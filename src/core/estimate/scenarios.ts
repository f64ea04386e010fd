// The few situations a latency or cost figure can belong to, and the one function every surface (status bar,
// hover, CodeLens, findings, report, Compare, CLI) takes its figures from. A TTFT without its scenario misleads:
// the same prompt on the same target is 110 ms alone and cold, 380 ms cold among 8 concurrent requests, and 30 ms
// with its static prefix served from the cache. Each surface prints the scenario next to the number.
import { formatCount } from '../format';
import { english, type Translate } from '../l10n';
import { cacheableTokens, cacheRuleOf } from './cacheRule';
import type { CacheTtl } from './cost';
import { estimate, type Estimate, type Range } from './estimate';
import type { CalibrationProfile } from './schemas';
import type { ResolvedTarget } from './targets';

/** What the figures assume about load: requests in flight together and tokens generated per call. */
export interface Workload {
  concurrency: number;
  outputTokens: number;
}

/** The workload of one request alone (the `estimate` CLI's default). */
export function singleRequest(outputTokens: number): Workload {
  return { concurrency: 1, outputTokens };
}

/**
 * A named situation: cold (nothing cached: a first-time user's wait) or warm (the prompt's static prefix
 * served from the prefix cache), at a concurrency, with an output length.
 */
export interface Scenario {
  cache: 'cold' | 'warm';
  concurrency: number;
  outputTokens: number;
  inputTokens: number;
  /** Prefix tokens served from the cache under the target's cache rule; 0 when cold. */
  cachedTokens: number;
}

export function coldScenario(workload: Workload, inputTokens: number): Scenario {
  return { cache: 'cold', ...pick(workload), inputTokens, cachedTokens: 0 };
}

/** Why a target has no warm figure for this prompt, in words for a table cell's footnote. */
export type NoWarm = { reason: string };

/**
 * The warm scenario: the static prefix (`prefixTokens`, up to the first dynamic element, never retrieved
 * context) as this target's cache serves it — whole blocks or granules, nothing below its minimum, at least one
 * token left to compute. A reason instead when nothing would be cached.
 */
export function warmScenario(
  target: ResolvedTarget,
  workload: Workload,
  inputTokens: number,
  prefixTokens: number,
): Scenario | NoWarm {
  if (prefixTokens <= 0) return { reason: 'no static prefix to cache' };
  const rule = cacheRuleOf(target);
  if (!rule) return { reason: `${target.id} has no prompt caching` };
  const cachedTokens = cacheableTokens(prefixTokens, inputTokens, rule);
  if (cachedTokens === 0)
    return {
      reason: `the ${formatCount(prefixTokens)}-token static prefix is below ${target.id}'s ${formatCount(rule.minTokens)}-token cache minimum`,
    };
  return { cache: 'warm', ...pick(workload), inputTokens, cachedTokens };
}

export function isScenario(s: Scenario | NoWarm): s is Scenario {
  return 'cache' in s;
}

export interface ScenarioOptions {
  /** A measured profile for this target: replaces the modelled latency. */
  calibration?: CalibrationProfile;
  cacheTtl?: CacheTtl;
  /** When the call is made, for time-of-day prices; default: now. */
  at?: Date;
}

/** One scenario's figures on one target. */
export interface Figures {
  scenario: Scenario;
  /** TTFT of the median request at the scenario's concurrency, with its range. */
  ttftMs: Range;
  /** 99th-percentile TTFT at that concurrency. */
  ttftP99Ms: number;
  tpotMs: Range;
  e2eMs: Range;
  /** One call in this scenario; null without a price (a hardware row with no $/hour). */
  costUsd: number | null;
  /** 1,000 calls: cold, 1,000 cold calls; warm, one cold call (it fills the cache) and 999 warm ones. */
  costPer1kCallsUsd: number | null;
  /** The estimate behind the figures (bounds, notes, cost basis). */
  estimate: Estimate;
}

/** THE function: a target's figures in a scenario. */
export function scenarioFigures(target: ResolvedTarget, scenario: Scenario, options: ScenarioOptions = {}): Figures {
  const e = estimate(target, {
    inputTokens: scenario.inputTokens,
    cachedTokens: scenario.cachedTokens,
    outputTokens: scenario.outputTokens,
    concurrency: scenario.concurrency,
    ...(options.calibration ? { calibration: options.calibration } : {}),
    ...(options.cacheTtl ? { cacheTtl: options.cacheTtl } : {}),
    ...(options.at ? { at: options.at } : {}),
  });
  return {
    scenario,
    ttftMs: e.ttftMs,
    ttftP99Ms: e.concurrencyTtftMs.p99,
    tpotMs: e.tpotMs,
    e2eMs: e.e2eMs,
    costUsd: e.costUsd,
    costPer1kCallsUsd: e.costPer1kCallsUsd,
    estimate: e,
  };
}

/** The scenario an estimate was made in (the CLI's `estimate` prints it). */
export function scenarioOf(
  e: Pick<Estimate, 'cachedTokens' | 'concurrency' | 'outputTokens' | 'inputTokens'>,
): Scenario {
  return {
    cache: e.cachedTokens > 0 ? 'warm' : 'cold',
    concurrency: e.concurrency,
    outputTokens: e.outputTokens,
    inputTokens: e.inputTokens,
    cachedTokens: e.cachedTokens,
  };
}

/** "1 request" / "8 concurrent". */
export function concurrencyLabel(concurrency: number): string {
  return concurrency === 1 ? '1 request' : `${formatCount(concurrency)} concurrent`;
}

/** "8 concurrent requests, 256 output tokens": what every figure of a view assumes, said once. */
export function workloadLabel(workload: Workload, t: Translate = english): string {
  const requests =
    workload.concurrency === 1
      ? t('1 request at a time')
      : t('{0} concurrent requests', formatCount(workload.concurrency));
  const output =
    workload.outputTokens === 1 ? t('1 output token') : t('{0} output tokens', formatCount(workload.outputTokens));
  return `${requests}, ${output}`;
}

/** "2,048 of 5,788 tokens cached". */
export function cachedLabel(s: Pick<Scenario, 'cachedTokens' | 'inputTokens'>, t: Translate = english): string {
  return t('{0} of {1} tokens cached', formatCount(s.cachedTokens), formatCount(s.inputTokens));
}

/** "cold, 1 request" · "cold, 8 concurrent" · "warm (2,048 of 5,788 tokens cached), 8 concurrent". */
export function scenarioLabel(s: Scenario): string {
  const cache = s.cache === 'cold' ? 'cold' : `warm (${cachedLabel(s)})`;
  return `${cache}, ${concurrencyLabel(s.concurrency)}`;
}

/**
 * The serving stack and measurement scope a target's latency assumes, in one line every surface prints:
 * "vLLM-class engine · HTTP" (self-hosted: the modelled server, its HTTP front end included) or "OpenAI API ·
 * client side" (the provider's published or measured figures as a client sees them).
 */
export function servingLabel(target: ResolvedTarget): string {
  if (target.kind === 'provider') return `${providerName(target.provider.provider)} API · client side`;
  return 'vLLM-class engine · HTTP';
}

const PROVIDER_NAMES: Record<string, string> = {
  openai: 'OpenAI',
  anthropic: 'Anthropic',
  google: 'Google',
  deepseek: 'DeepSeek',
  mistral: 'Mistral',
  groq: 'Groq',
  together: 'Together',
  fireworks: 'Fireworks',
  xai: 'xAI',
  cerebras: 'Cerebras',
};

function providerName(id: string): string {
  return PROVIDER_NAMES[id] ?? id;
}

function pick(w: Workload): Workload {
  return { concurrency: w.concurrency, outputTokens: w.outputTokens };
}
