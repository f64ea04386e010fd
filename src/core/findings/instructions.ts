import { formatCount, formatMs, formatUsd, scaleUsd, usdDifference } from '../format';
import type { Activation, ParsedPrompt } from '../prompt/types';
import { isInstructionFormat, type InstructionFormat } from '../prompt/formats';
import { cacheableTokens, type FindingCostModel } from './costModel';
import type { FindingSettings } from './settings';
import type { Finding } from './types';

/**
 * Where VS Code and the Copilot CLI look for `*.instructions.md` by default (VS Code's
 * `chat.instructionsFilesLocations` can add folders); files elsewhere are catalogues, not loaded.
 */
export const DEFAULT_INSTRUCTION_LOCATIONS = ['.github/instructions'] as const;

/** Where skills are discovered; each one's name and description are in every request's context. */
const SKILL_LOCATIONS = ['.github/skills', '.claude/skills'];

export interface InstructionSource {
  /** Workspace-relative path, forward slashes. */
  file: string;
  parsed: ParsedPrompt;
  /** Content tokens of the file's messages, with the target's tokenizer. */
  tokens: number;
}

export interface InstructionFileEntry {
  file: string;
  format: InstructionFormat;
  /** What this file adds to a request when it applies: the whole body, or a skill's name and description. */
  tokens: number;
  /** When it applies; `always` for the always-on set. */
  activation: Activation;
  /** A skill whose description (not its body) is always loaded. */
  skillMetadata?: true;
}

export interface InstructionsBudget {
  /** Everything prepended to every chat request, biggest first. */
  alwaysOn: InstructionFileEntry[];
  /** The other instruction files, with when they apply. */
  conditional: InstructionFileEntry[];
  /** Total tokens of the always-on set. */
  tokens: number;
  /** Of those, what the target's prefix cache can serve: they come first, so all of them, rounded to the rule. */
  cacheableTokens: number;
  /** Added to every request, nothing cached (the first request, or after the cache expired). */
  cold: { ttftMs: number; costUsd: number | null };
  /** Added to every request when the prefix cache serves them (the steady state of a busy assistant). */
  warm: { ttftMs: number; costUsd: number | null };
  maxTokens: number;
  target: string;
}

/**
 * The always-on instructions of a workspace: `.github/copilot-instructions.md`, the root
 * `AGENTS.md` and `.cursorrules`, `*.instructions.md` with `applyTo: '**'` in an instructions
 * folder, Cursor rules with `alwaysApply: true`, and the name and description of every skill.
 * They are prepended to every chat request, so their tokens add prefill to each one; they come
 * first and do not change, so they are the natural cacheable prefix. A nested `AGENTS.md` (or
 * `.cursor/rules` folder) applies to its folder only.
 */
export function instructionsBudget(
  sources: readonly InstructionSource[],
  model: FindingCostModel,
  settings: FindingSettings['instructions'],
  count: (text: string) => number,
  locations: readonly string[] = DEFAULT_INSTRUCTION_LOCATIONS,
): InstructionsBudget {
  const alwaysOn: InstructionFileEntry[] = [];
  const conditional: InstructionFileEntry[] = [];
  for (const source of sources) {
    const { parsed, file } = source;
    if (!isInstructionFormat(parsed.format)) continue;
    const format = parsed.format;
    const activation = effectiveActivation(file, format, parsed.settings.activation ?? { kind: 'manual' }, locations);
    if (format === 'skill' && under(file, SKILL_LOCATIONS)) {
      // The skill's name is its folder's (agentskills.io); name and description are listed to the model.
      const name = file.split('/').at(-2) ?? '';
      const description = activation.kind === 'on-request' ? (activation.description ?? '') : '';
      const tokens = count(`${name}: ${description}`);
      alwaysOn.push({ file, format, tokens, activation: { kind: 'always' }, skillMetadata: true });
    }
    const entry = { file, format, tokens: source.tokens, activation };
    (activation.kind === 'always' ? alwaysOn : conditional).push(entry);
  }
  alwaysOn.sort((a, b) => b.tokens - a.tokens || a.file.localeCompare(b.file));
  conditional.sort((a, b) => a.file.localeCompare(b.file));
  const tokens = alwaysOn.reduce((n, e) => n + e.tokens, 0);
  // They lead the request, so a cache holds all of them (to the rule's granularity); one token of the
  // request after them is always computed.
  const cached = cacheableTokens(tokens, tokens + 1, model.cacheRule);
  const atLeastZero = (usd: number | null) => (usd === null ? null : Math.max(0, usd));
  const added = (cachedTokens: number) => ({
    ttftMs: tokens === 0 ? 0 : Math.max(0, model.ttftMs(tokens + 1, cachedTokens) - model.ttftMs(1, 0)),
    // null: the target has no price (a latency-only hardware row).
    costUsd:
      tokens === 0 ? 0 : atLeastZero(usdDifference(model.costUsd(tokens + 1, cachedTokens), model.costUsd(1, 0))),
  });
  return {
    alwaysOn,
    conditional,
    tokens,
    cacheableTokens: cached,
    cold: added(0),
    warm: added(cached),
    maxTokens: settings.maxTokens,
    target: model.label,
  };
}

/** The files' own activation, narrowed by where they are (only the root copy applies everywhere). */
function effectiveActivation(
  file: string,
  format: InstructionFormat,
  activation: Activation,
  locations: readonly string[],
): Activation {
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  switch (format) {
    case 'agents-md':
      return dir === '' ? activation : { kind: 'globs', globs: [`${dir}/**`] };
    case 'copilot-instructions':
      return dir === '.github' ? activation : { kind: 'manual' };
    case 'cursor-rules': {
      const owner = file.endsWith('.cursorrules') ? dir : dir.replace(/(^|\/)\.cursor\/rules(\/.*)?$/, '');
      if (owner === '' || activation.kind !== 'always') return activation;
      return { kind: 'globs', globs: [`${owner}/**`] };
    }
    case 'instructions':
      return activation.kind === 'always' && !under(file, locations) ? { kind: 'manual' } : activation;
    default:
      return activation;
  }
}

function under(file: string, folders: readonly string[]): boolean {
  return folders.some((f) => file.startsWith(`${f.replace(/\/+$/, '')}/`));
}

/** One line: total tokens, what they add per request cold and warm, and per 1,000 requests. */
export function describeInstructionsBudget(b: InstructionsBudget): string {
  const files = b.alwaysOn.length === 1 ? '1 file' : `${b.alwaysOn.length} files`;
  return (
    `Always-on instructions: ${formatCount(b.tokens)} tokens in ${files}, prepended to every chat request: ` +
    `+${formatMs(b.cold.ttftMs)} TTFT and ${formatUsd(b.cold.costUsd)} per request cold ` +
    `(${formatUsd(scaleUsd(b.cold.costUsd, 1000))} per 1,000), +${formatMs(b.warm.ttftMs)} and ${formatUsd(b.warm.costUsd)} ` +
    `(${formatUsd(scaleUsd(b.warm.costUsd, 1000))} per 1,000) when the prefix cache serves them ` +
    `(${formatCount(b.cacheableTokens)} cacheable) on ${b.target}`
  );
}

/**
 * `instructions-budget`, on the biggest always-on file, when the set exceeds the budget. The
 * related locations are the other always-on files.
 */
export function instructionsBudgetFinding(b: InstructionsBudget): Finding | undefined {
  const [biggest, ...others] = b.alwaysOn;
  if (!biggest || b.tokens <= b.maxTokens) return undefined;
  return {
    code: 'instructions-budget',
    severity: 'warning',
    message:
      `${describeInstructionsBudget(b)}; budget ${formatCount(b.maxTokens)}. ` +
      `They are the natural cacheable prefix: keep them stable, and move what only some requests need into ` +
      `files with narrower applyTo/globs or into skills`,
    file: biggest.file,
    range: { start: 0, end: 0 },
    relatedFiles: others.map((o) => ({
      file: o.file,
      range: { start: 0, end: 0 },
      message: `${formatCount(o.tokens)} always-on tokens${o.skillMetadata ? ' (skill name and description)' : ''}`,
    })),
    data: {
      tokens: b.tokens,
      maxTokens: b.maxTokens,
      cacheableTokens: b.cacheableTokens,
      coldTtftMs: b.cold.ttftMs,
      warmTtftMs: b.warm.ttftMs,
      ...(b.cold.costUsd !== null ? { coldUsdPerRequest: b.cold.costUsd } : {}),
      ...(b.warm.costUsd !== null ? { warmUsdPerRequest: b.warm.costUsd } : {}),
      files: b.alwaysOn.map((e) => e.file),
    },
  };
}
